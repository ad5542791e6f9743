package postgres_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/postgres/pgtest"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// sentCount is how many outbox rows are marked sent.
func sentCount(t testing.TB, pool *pgxpool.Pool) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE status = 'sent'`).Scan(&n); err != nil {
		t.Error(err)
	}
	return n
}

// TestWorkerMarksEachEmailSentWhenTheRelayAcceptsIt looks at the outbox
// each time the relay receives a message of a batch: every message it
// accepted before is already marked sent (it used to be marked after the
// whole batch, so a crash re-sent the batch).
func TestWorkerMarksEachEmailSentWhenTheRelayAcceptsIt(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	var mu sync.Mutex
	var seen []string
	sink := smtpsink.Start(t, smtpsink.Options{OnData: func(accepted int) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, fmt.Sprintf("%d/%d", sentCount(t, pool), accepted))
	}})
	c := newClock()
	insert(t, pool, c.Now(), outbox.YourTurn, 5, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), batch: 10})
	if n, err := w.RunOnce(context.Background()); n != 5 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(seen) != "[0/0 1/1 2/2 3/3 4/4]" {
		t.Fatalf("rows marked sent / messages accepted, as each message arrived: %v", seen)
	}
	if n := sentCount(t, pool); n != 5 {
		t.Fatalf("%d rows sent, want 5", n)
	}
}

// TestStoppingWorkerReleasesItsClaims stops a worker in the middle of a
// batch: the message in flight is delivered and marked, the rows it had
// not sent are due again at once, their claim not counted, and another
// worker sends them without waiting for the lease.
func TestStoppingWorkerReleasesItsClaims(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	sink := smtpsink.Start(t, smtpsink.Options{OnData: func(accepted int) {
		if accepted == 2 {
			stop()
		}
	}})
	c := newClock()
	insert(t, pool, c.Now(), outbox.YourTurn, 5, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), batch: 10})
	if err := w.Run(ctx); err != context.Canceled {
		t.Fatalf("Run = %v", err)
	}
	if got := len(sink.Messages()); got != 3 {
		t.Fatalf("%d messages delivered before the stop, want 3", got)
	}
	var pending, due, attempts int
	if err := pool.QueryRow(context.Background(), `SELECT count(*), count(*) FILTER (WHERE next_attempt_at <= $1), coalesce(sum(attempts), 0)
FROM outbox WHERE status = 'pending'`, c.Now()).Scan(&pending, &due, &attempts); err != nil {
		t.Fatal(err)
	}
	if n := sentCount(t, pool); n != 3 || pending != 2 || due != 2 || attempts != 0 {
		t.Fatalf("after the stop: %d sent, %d pending, %d due now, %d attempts counted", n, pending, due, attempts)
	}
	other := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), batch: 10})
	if n, err := other.RunOnce(context.Background()); n != 2 || err != nil {
		t.Fatalf("another worker took %d rows (%v), want the 2 released", n, err)
	}
	for mid, n := range messageIDs(t, sink.Messages()) {
		if n != 1 {
			t.Errorf("%s received %d times", mid, n)
		}
	}
}

// crashChildEnv names the database of the worker process
// TestWorkerCrashDuplicatesAtMostOneEmail starts (and then kills);
// crashChildClock is the time its clock stands at (RFC 3339).
const (
	crashChildEnv   = "PBEM_TEST_CRASH_WORKER_DB"
	crashChildClock = "PBEM_TEST_CRASH_WORKER_NOW"
	// crashChildApp is the application_name of the worker process's
	// connections, by which the test waits for them to end.
	crashChildApp = "pbem-crash-child"
	// crashLease is the lease of the worker process: long enough that
	// the process, however slow the machine, sends well within it.
	crashLease = time.Minute
)

// TestWorkerCrashDuplicatesAtMostOneEmail runs a worker in a process of
// its own and kills it (SIGKILL) while the relay holds its third message
// of five, before accepting it: once the lease has run out (on the
// test's clock: the dead worker's lease is over when another worker's
// clock is past it, no real time passes) another worker sends the rest,
// and only that one message arrives twice. The rows are counted only
// after the dead process's database connections have ended, so that
// nothing it had in flight is still being written.
func TestWorkerCrashDuplicatesAtMostOneEmail(t *testing.T) {
	if os.Getenv(crashChildEnv) != "" {
		crashChild(t)
		return
	}
	dbURL := pgtest.NewDB(t)
	pool, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	// started hands the worker process to the sink's goroutine.
	started := make(chan *exec.Cmd, 1)
	killed := make(chan struct{})
	sink := smtpsink.Start(t, smtpsink.Options{OnData: func(accepted int) {
		if accepted == 2 {
			c := <-started
			_ = c.Process.Kill()
			_ = c.Wait()
			close(killed)
		}
	}})
	c := newClock()
	insert(t, pool, c.Now(), outbox.YourTurn, 5, "ann@example.org")
	childURL, err := withApplicationName(dbURL, crashChildApp)
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestWorkerCrashDuplicatesAtMostOneEmail$", "-test.v")
	child.Env = append(os.Environ(), crashChildEnv+"="+childURL, "PBEM_TEST_CRASH_WORKER_SMTP="+sink.Addr(),
		crashChildClock+"="+c.Now().Format(time.RFC3339Nano))
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	started <- child
	select {
	case <-killed:
	case <-time.After(2 * time.Minute):
		_ = child.Process.Kill()
		t.Fatal("the worker process did not reach its third message")
	}
	waitNoConnections(t, pool, crashChildApp)
	if n := sentCount(t, pool); n != 2 {
		t.Fatalf("%d rows marked sent when the worker died, want 2", n)
	}
	// The dead worker's lease is still running: another worker takes nothing.
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), batch: 10})
	if n, err := w.RunOnce(context.Background()); n != 0 || err != nil {
		t.Fatalf("within the dead worker's lease: %d rows, %v; want none", n, err)
	}
	// Its lease runs out; the other worker sends the rest.
	c.Add(crashLease)
	if n, err := w.RunOnce(context.Background()); n != 3 || err != nil {
		t.Fatalf("after the crash: %d rows, %v; want the 3 the dead worker held", n, err)
	}
	dup := 0
	got := messageIDs(t, sink.Messages())
	for _, n := range got {
		dup += n - 1
	}
	if len(got) != 5 || dup != 1 {
		t.Fatalf("%d distinct messages, %d duplicates; want 5 and 1: %v", len(got), dup, got)
	}
}

// withApplicationName returns dbURL with its connections named app
// (pg_stat_activity.application_name).
func withApplicationName(dbURL, app string) (string, error) {
	u, err := url.Parse(dbURL)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("application_name", app)
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// waitNoConnections waits until no connection named app is open on the
// pool's database: the backends of a killed process end once they notice
// its sockets closed, finishing any statement they were running first.
func waitNoConnections(t *testing.T, pool *pgxpool.Pool, app string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
WHERE datname = current_database() AND application_name = $1`, app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d connections of the killed process still open after a minute", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// crashChild is the worker process of TestWorkerCrashDuplicatesAtMostOneEmail:
// on a clock standing at the parent's time, it sends until it is killed.
func crashChild(t *testing.T) {
	now, err := time.Parse(time.RFC3339Nano, os.Getenv(crashChildClock))
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(context.Background(), os.Getenv(crashChildEnv))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := notify.ParseSMTPURL("smtp://" + os.Getenv("PBEM_TEST_CRASH_WORKER_SMTP") + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	sender, err := notify.NewSMTPSender(cfg, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// One sender: its batch of five goes one message after the other, so
	// that when the relay holds the third message the first two are
	// marked sent (with Run's default of four senders, two could claim
	// parts of the five and send at once: the relay's count then says
	// nothing of one sender's progress, and once 1 row was marked sent in
	// 50 runs).
	w, err := notify.NewWorker(notify.WorkerConfig{Store: postgres.NewOutbox(pool), Sender: sender,
		Renderer: testRenderer(t), Batch: 10, Senders: 1, Lease: crashLease, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_ = w.Run(ctx)
}
