package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// TestWorkerKeepsItsConnectionBetweenBatches sends three batches on one
// SMTP connection; after the relay closed the idle connection, the next
// batch opens a new one and loses nothing.
func TestWorkerKeepsItsConnectionBetweenBatches(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	c := newClock()
	insert(t, pool, c.Now(), outbox.YourTurn, 30, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), batch: 10})
	for i := range 3 {
		if n, err := w.RunOnce(context.Background()); n != 10 || err != nil {
			t.Fatalf("batch %d: RunOnce = %d, %v", i, n, err)
		}
	}
	if got := len(sink.Messages()); got != 30 {
		t.Fatalf("sink received %d messages, want 30", got)
	}
	if n := sink.Connections(); n != 1 {
		t.Fatalf("three batches took %d connections, want 1", n)
	}
	sink.CloseConnections()
	insert(t, pool, c.Now(), outbox.YourTurn, 10, "ann@example.org")
	if n, err := w.RunOnce(context.Background()); n != 10 || err != nil {
		t.Fatalf("after the relay closed the connection: RunOnce = %d, %v", n, err)
	}
	if n := sink.Connections(); n != 2 {
		t.Errorf("%d connections after the relay closed the first, want 2", n)
	}
	if got := statusCounts(t, pool); got["sent"] != 40 || len(got) != 1 {
		t.Errorf("outbox %v, want 40 sent", got)
	}
	for id, n := range messageIDs(t, sink.Messages()) {
		if n != 1 {
			t.Errorf("%s received %d times", id, n)
		}
	}
}

// TestWorkerConnectionBrokenMidBatchLosesNothing breaks the connection
// while the relay reads the sixth message of ten: the five before are
// sent, the sixth is retried after its backoff, the four after go out on a
// new connection, and each message arrives once.
func TestWorkerConnectionBrokenMidBatchLosesNothing(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	var sink *smtpsink.Sink
	sink = smtpsink.Start(t, smtpsink.Options{OnData: func(accepted int) {
		if accepted == 4 { // the fifth message is being accepted: break the sixth
			sink.BreakNextData(1)
		}
	}})
	c := newClock()
	ids := insert(t, pool, c.Now(), outbox.YourTurn, 10, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), batch: 10})
	if n, err := w.RunOnce(context.Background()); n != 10 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	if got := statusCounts(t, pool); got["sent"] != 9 || got["pending"] != 1 {
		t.Fatalf("after the broken connection: outbox %v, want 9 sent and 1 pending", got)
	}
	var status, lastErr string
	var attempts int
	if err := pool.QueryRow(context.Background(), `SELECT status, coalesce(last_error, ''), attempts FROM outbox WHERE id = $1`,
		ids[5]).Scan(&status, &lastErr, &attempts); err != nil {
		t.Fatal(err)
	}
	if status != "pending" || lastErr == "" || attempts != 1 {
		t.Fatalf("the sixth row: %s, error %q, %d attempts; want pending with its error after 1 attempt", status, lastErr, attempts)
	}
	if n := sink.Connections(); n != 2 {
		t.Errorf("%d connections, want 2 (the broken one and its replacement)", n)
	}
	c.Add(11 * time.Second) // the test worker's backoff is 10 s
	if n, err := w.RunOnce(context.Background()); n != 1 || err != nil {
		t.Fatalf("the retry: RunOnce = %d, %v", n, err)
	}
	got := messageIDs(t, sink.Messages())
	if len(got) != 10 {
		t.Fatalf("%d distinct messages arrived, want 10", len(got))
	}
	for id, n := range got {
		if n != 1 {
			t.Errorf("%s arrived %d times", id, n)
		}
	}
	if got := statusCounts(t, pool); got["sent"] != 10 {
		t.Errorf("outbox %v, want 10 sent", got)
	}
}

// TestParallelSendersSendEachRowOnce runs two workers (two servers) of
// four senders each over 2,000 rows, in batches of 25: every row is sent
// exactly once and marked sent, on at most one connection per sender.
// Not parallel: it waits for 2,000 rows against a deadline, which other
// tests of the binary would share.
func TestParallelSendersSendEachRowOnce(t *testing.T) {
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	const rows = 2000
	insert(t, pool, time.Now().Add(-time.Second), outbox.YourTurn, rows, "ann@example.org")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 2 {
		w := newWorker(t, pool, workerOpts{sender: smtpSender(t, sink), batch: 25, senders: 4})
		wg.Add(1)
		go func() { defer wg.Done(); _ = w.Run(ctx) }()
	}
	if got := sink.Wait(rows, 60*time.Second); len(got) < rows {
		t.Errorf("%d of %d messages arrived within a minute", len(got), rows)
	}
	// Once every row is marked sent, no sender has a row left to send:
	// stopped (Run returns when its senders have), the workers have sent
	// all they ever will, a duplicate included.
	for deadline := time.Now().Add(30 * time.Second); statusCounts(t, pool)["sent"] < rows && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	got := sink.Messages()
	ids := messageIDs(t, got)
	if len(got) != rows || len(ids) != rows {
		t.Fatalf("%d messages, %d distinct; want %d of each", len(got), len(ids), rows)
	}
	if counts := statusCounts(t, pool); counts["sent"] != rows {
		t.Errorf("outbox %v, want %d sent", counts, rows)
	}
	if n := sink.Connections(); n > 8 {
		t.Errorf("%d connections for 8 senders", n)
	}
}
