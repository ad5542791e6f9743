package postgres_test

import (
	"context"
	"fmt"
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
// TestWorkerCrashDuplicatesAtMostOneEmail starts (and then kills).
const crashChildEnv = "PBEM_TEST_CRASH_WORKER_DB"

// TestWorkerCrashDuplicatesAtMostOneEmail runs a worker in a process of
// its own and kills it (SIGKILL) while the relay holds its third message
// of five, before accepting it: after the lease another worker sends the
// rest, and only that one message arrives twice.
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
	insert(t, pool, time.Now().Add(-time.Second), outbox.YourTurn, 5, "ann@example.org")
	child := exec.Command(os.Args[0], "-test.run=^TestWorkerCrashDuplicatesAtMostOneEmail$", "-test.v")
	child.Env = append(os.Environ(), crashChildEnv+"="+dbURL, "PBEM_TEST_CRASH_WORKER_SMTP="+sink.Addr())
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	started <- child
	select {
	case <-killed:
	case <-time.After(30 * time.Second):
		_ = child.Process.Kill()
		t.Fatal("the worker process did not reach its third message")
	}
	if n := sentCount(t, pool); n != 2 {
		t.Fatalf("%d rows marked sent when the worker died, want 2", n)
	}
	// The dead worker's lease (2 s) runs out; another worker sends the rest.
	time.Sleep(2100 * time.Millisecond)
	w := newWorker(t, pool, workerOpts{sender: smtpSender(t, sink), batch: 10})
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

// crashChild is the worker process of TestWorkerCrashDuplicatesAtMostOneEmail:
// it sends until it is killed.
func crashChild(t *testing.T) {
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
	w, err := notify.NewWorker(notify.WorkerConfig{Store: postgres.NewOutbox(pool), Sender: sender,
		Renderer: testRenderer(t), Batch: 10, Lease: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = w.Run(ctx)
}
