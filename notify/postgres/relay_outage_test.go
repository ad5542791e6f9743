package postgres_test

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// relayFront stands before a sink as the relay pbem talks to: while down,
// every connection is answered "421 4.3.0" and closed, as a relay in
// maintenance does; while up, connections reach the sink.
type relayFront struct {
	ln   net.Listener
	sink string
	down atomic.Bool
	wg   sync.WaitGroup
}

func startRelayFront(t *testing.T, sink string) *relayFront {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &relayFront{ln: ln, sink: sink}
	go f.serve()
	t.Cleanup(func() { _ = ln.Close(); f.wg.Wait() })
	return f
}

func (f *relayFront) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			defer c.Close()
			if f.down.Load() {
				_, _ = io.WriteString(c, "421 4.3.0 relay.example.org service not available, try again later\r\n")
				return
			}
			s, err := net.Dial("tcp", f.sink)
			if err != nil {
				return
			}
			defer s.Close()
			go func() { _, _ = io.Copy(s, c); _ = s.Close() }()
			_, _ = io.Copy(c, s)
		}()
	}
}

// TestRelayDownFiveHours: the relay answers 421 for five simulated hours.
// Every email stays pending and the organiser sees it as waiting, with
// the relay's answer; when the relay is back, each goes out once.
func TestRelayDownFiveHours(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	clk := newClock()
	start := clk.Now()
	sink := smtpsink.Start(t, smtpsink.Options{})
	front := startRelayFront(t, sink.Addr())
	front.down.Store(true)
	// An invitation (a seat's first one has the seat's thread as its
	// Message-ID) and four your-turn emails.
	ids := append(insert(t, pool, start, outbox.Invitation, 1, "ann@example.org"), insert(t, pool, start, outbox.YourTurn, 4, "bob@example.org")...)
	outbox := postgres.NewOutbox(pool)
	w, err := notify.NewWorker(notify.WorkerConfig{Store: outbox, Sender: senderAt(t, front.ln.Addr().String()),
		Renderer: testRenderer(t), Now: clk.Now, Lease: time.Minute, RecordFor: -1})
	if err != nil {
		t.Fatal(err)
	}
	attempts := 0
	for clk.Now().Before(start.Add(5 * time.Hour)) {
		attempts += runDue(t, w)
		if st := statusCounts(t, pool); st["pending"] != len(ids) {
			t.Fatalf("after %v of outage: %v, want every email pending", clk.Now().Sub(start), st)
		}
		toNextAttempt(t, pool, clk, start.Add(5*time.Hour))
	}
	if len(sink.Messages()) != 0 {
		t.Fatal("the sink got mail through a relay that was down")
	}
	waiting, err := outbox.Failed(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(waiting) != len(ids) {
		t.Fatalf("the organiser sees %d emails, want the %d waiting", len(waiting), len(ids))
	}
	for _, f := range waiting {
		if f.Status != notify.EmailWaiting || !strings.Contains(f.LastError, "421") || f.NextAttempt == nil || f.Attempts <= 8 {
			t.Errorf("after 5 hours down, the organiser sees %+v, want waiting with the relay's 421, a next attempt and more than 8 attempts", f)
		}
		if f.NextAttempt != nil && f.NextAttempt.Sub(clk.Now()) > time.Hour+15*time.Minute {
			t.Errorf("the next attempt is %v away: the delays should stop growing at an hour", f.NextAttempt.Sub(clk.Now()))
		}
	}
	t.Logf("5 simulated hours down: %d sends tried for %d emails", attempts, len(ids))
	front.down.Store(false)
	for statusCounts(t, pool)["sent"] != len(ids) {
		if clk.Now().After(start.Add(7 * time.Hour)) {
			t.Fatalf("two hours after the relay came back: %v", statusCounts(t, pool))
		}
		runDue(t, w)
		toNextAttempt(t, pool, clk, start.Add(24*time.Hour))
	}
	for id, n := range messageIDs(t, sink.Messages()) {
		if n != 1 {
			t.Errorf("%s received %d times", id, n)
		}
	}
	if got := len(sink.Messages()); got != len(ids) {
		t.Errorf("the sink got %d messages, want %d", got, len(ids))
	}
	if left, err := outbox.Failed(context.Background(), "g1"); err != nil || len(left) != 0 {
		t.Errorf("after delivery the organiser still sees %v (%v)", left, err)
	}
}

// TestRelayDownForDaysGivesUp: a relay down for good: the email is retried
// for DefaultRetryFor (five days), at least four days, then given up and
// shown as failed.
func TestRelayDownForDaysGivesUp(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	clk := newClock()
	start := clk.Now()
	sink := smtpsink.Start(t, smtpsink.Options{})
	front := startRelayFront(t, sink.Addr())
	front.down.Store(true)
	insert(t, pool, start, outbox.Invitation, 1, "ann@example.org")
	outbox := postgres.NewOutbox(pool)
	w, err := notify.NewWorker(notify.WorkerConfig{Store: outbox, Sender: senderAt(t, front.ln.Addr().String()),
		Renderer: testRenderer(t), Now: clk.Now, Lease: time.Minute, RecordFor: -1})
	if err != nil {
		t.Fatal(err)
	}
	for statusCounts(t, pool)["failed"] == 0 {
		if clk.Now().After(start.Add(notify.DefaultRetryFor + 2*time.Hour)) {
			t.Fatalf("still not given up after %v", clk.Now().Sub(start))
		}
		runDue(t, w)
		toNextAttempt(t, pool, clk, start.Add(10*24*time.Hour))
	}
	if gaveUp := clk.Now().Sub(start); gaveUp < 4*24*time.Hour {
		t.Fatalf("given up after %v, want at least 4 days", gaveUp)
	}
	failed, err := outbox.Failed(context.Background(), "g1")
	if err != nil || len(failed) != 1 || failed[0].Status != notify.EmailFailed || failed[0].NextAttempt != nil || !strings.Contains(failed[0].LastError, "421") {
		t.Fatalf("the organiser sees %+v (%v), want one failed email with the relay's answer", failed, err)
	}
	t.Logf("given up after %v and %d attempts", clk.Now().Sub(start).Round(time.Minute), failed[0].Attempts)
}

// runDue sends every due row and returns how many rows were claimed.
func runDue(t *testing.T, w *notify.Worker) int {
	t.Helper()
	total := 0
	for {
		n, err := w.RunOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return total
		}
		total += n
	}
}

// toNextAttempt moves the clock to the next pending row's attempt (a
// second later), or a minute on if none is pending, but not past limit.
func toNextAttempt(t *testing.T, pool *pgxpool.Pool, clk *clock, limit time.Time) {
	t.Helper()
	var next *time.Time
	if err := pool.QueryRow(context.Background(), `SELECT min(next_attempt_at) FROM outbox WHERE status = 'pending'`).Scan(&next); err != nil {
		t.Fatal(err)
	}
	to := clk.Now().Add(time.Minute)
	if next != nil {
		to = next.Add(time.Second)
	}
	if to.After(limit) {
		to = limit
	}
	d := to.Sub(clk.Now())
	if d <= 0 {
		d = time.Minute
	}
	clk.Add(d)
}

// senderAt is an SMTP sender to the relay at addr.
func senderAt(t *testing.T, addr string) *notify.SMTPSender {
	t.Helper()
	cfg, err := notify.ParseSMTPURL("smtp://" + addr + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	s, err := notify.NewSMTPSender(cfg, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
