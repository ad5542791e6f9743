package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

func TestWorkerSendsEachRowOnceAndMarksItSent(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	c := newClock()
	ids := insert(t, pool, c.Now(), outbox.YourTurn, 3, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink)})
	n, err := w.RunOnce(context.Background())
	if err != nil || n != 3 {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	if n, _ := w.RunOnce(context.Background()); n != 0 {
		t.Errorf("second RunOnce claimed %d rows", n)
	}
	got := messageIDs(t, sink.Messages())
	for _, id := range ids {
		if mid := fmt.Sprintf("<outbox-%d.g1@pbem.example.org>", id); got[mid] != 1 {
			t.Errorf("%s received %d times", mid, got[mid])
		}
	}
	var mid string
	var sent *time.Time
	if err := pool.QueryRow(context.Background(), `SELECT message_id, sent_at FROM outbox WHERE id = $1`, ids[0]).Scan(&mid, &sent); err != nil {
		t.Fatal(err)
	}
	if mid != fmt.Sprintf("outbox-%d.g1@pbem.example.org", ids[0]) || sent == nil {
		t.Errorf("row: message_id %q sent_at %v", mid, sent)
	}
}

func TestWorkerRetriesWhileTheServerRefusesThenDeliversOnce(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	sink.RefuseNext(7) // more than one batch's worth of refusals
	c := newClock()
	ids := insert(t, pool, c.Now(), outbox.YourTurn, 4, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink)})
	for range 5 {
		if _, err := w.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n, _ := w.RunOnce(context.Background()); n != 0 {
			t.Fatalf("a retried row was due again before its backoff (%d rows)", n)
		}
		c.Add(11 * time.Second)
	}
	got := messageIDs(t, sink.Messages())
	if len(got) != len(ids) {
		t.Fatalf("received %d distinct messages, want %d", len(got), len(ids))
	}
	for mid, n := range got {
		if n != 1 {
			t.Errorf("%s received %d times", mid, n)
		}
	}
	if s := statusCounts(t, pool); s["sent"] != 4 {
		t.Errorf("statuses %v", s)
	}
	var maxAttempts int
	_ = pool.QueryRow(context.Background(), `SELECT max(attempts) FROM outbox`).Scan(&maxAttempts)
	if maxAttempts < 2 {
		t.Errorf("max attempts %d: the refusals were not retried", maxAttempts)
	}
}

func TestWorkerMarksFailedAfterTheLimitAndTheAdminSeesIt(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	sink.RefuseNext(1000)
	c := newClock()
	ids := insert(t, pool, c.Now(), outbox.YourTurn, 1, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink)})
	for range 8 {
		if _, err := w.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		c.Add(11 * time.Second)
	}
	failed, err := postgres.NewOutbox(pool).Failed(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed[0].ID != ids[0] || failed[0].Attempts != 5 || failed[0].To != "ann@example.org" || failed[0].LastError == "" {
		t.Fatalf("failed = %+v", failed)
	}
	if other, _ := postgres.NewOutbox(pool).Failed(context.Background(), "other"); len(other) != 0 {
		t.Errorf("another game's failed emails: %+v", other)
	}
}

// crashingStore is an outbox whose Finish never happens: the worker
// "crashes" after sending and before marking the rows sent.
type crashingStore struct{ notify.OutboxStore }

func (crashingStore) Finish(context.Context, time.Time, []notify.Outcome) error {
	return errors.New("crash")
}

func TestWorkerStoppedBetweenClaimAndSentStillDelivers(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	c := newClock()
	store := postgres.NewOutbox(pool)
	ids := insert(t, pool, c.Now(), outbox.YourTurn, 2, "ann@example.org")

	// A worker takes the rows and dies before sending anything.
	if rows, err := store.Claim(context.Background(), c.Now(), 10, time.Minute); err != nil || len(rows) != 2 {
		t.Fatalf("claim = %v, %v", rows, err)
	}
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink)})
	c.Add(30 * time.Second)
	if n, _ := w.RunOnce(context.Background()); n != 0 {
		t.Fatalf("took %d leased rows", n)
	}
	c.Add(31 * time.Second) // the lease has run out
	if n, err := w.RunOnce(context.Background()); n != 2 || err != nil {
		t.Fatalf("after the lease: %d, %v", n, err)
	}
	if got := messageIDs(t, sink.Messages()); len(got) != 2 {
		t.Fatalf("received %v", got)
	}

	// A worker that sent and died before marking: the row goes out again
	// after the lease, with the same Message-ID (the documented trade-off).
	id := insert(t, pool, c.Now(), outbox.Reminder, 1, "bob@example.org")[0]
	crasher := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), store: crashingStore{store}})
	if _, err := crasher.RunOnce(context.Background()); err == nil {
		t.Fatal("crashing store did not fail")
	}
	c.Add(61 * time.Second)
	if n, err := w.RunOnce(context.Background()); n != 1 || err != nil {
		t.Fatalf("redelivery: %d, %v", n, err)
	}
	if got := messageIDs(t, sink.Messages())[fmt.Sprintf("<outbox-%d.g1@pbem.example.org>", id)]; got != 2 {
		t.Errorf("crashed row received %d times, want 2 with one Message-ID", got)
	}
	if s := statusCounts(t, pool); s["sent"] != 3 || len(ids) != 2 {
		t.Errorf("statuses %v", s)
	}
}

// TestTwoWorkersOverAThousandRowsSendEachOnce is not parallel: it waits for
// a thousand rows against a deadline, which other tests of the binary
// would share.
func TestTwoWorkersOverAThousandRowsSendEachOnce(t *testing.T) {
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	const n = 1000
	insert(t, pool, time.Now().Add(-time.Second), outbox.YourTurn, n, "ann@example.org")
	var wg sync.WaitGroup
	claimed := make([]int, 2)
	for i := range 2 {
		w := newWorker(t, pool, workerOpts{sender: smtpSender(t, sink), batch: 25})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k, err := w.RunOnce(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				if k == 0 {
					return
				}
				claimed[i] += k
			}
		}()
	}
	wg.Wait()
	got := messageIDs(t, sink.Wait(n, 10*time.Second))
	if len(got) != n {
		t.Fatalf("received %d distinct messages, want %d", len(got), n)
	}
	for mid, k := range got {
		if k != 1 {
			t.Errorf("%s received %d times", mid, k)
		}
	}
	if claimed[0]+claimed[1] != n || claimed[0] == 0 || claimed[1] == 0 {
		t.Errorf("claims %v: want both workers busy, %d in all", claimed, n)
	}
	if s := statusCounts(t, pool); s["sent"] != n {
		t.Errorf("statuses %v", s)
	}
}

func TestWorkerHonoursPreferences(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	prefs := postgres.NewPrefs(pool)
	ctx := context.Background()
	if err := prefs.SetMode(ctx, "Off@Example.org", notify.Off); err != nil {
		t.Fatal(err)
	}
	if err := prefs.SetMode(ctx, "digest@example.org", notify.DailyDigest); err != nil {
		t.Fatal(err)
	}
	if err := prefs.SetMode(ctx, "x@example.org", "sometimes"); err == nil {
		t.Error("bad mode accepted")
	}
	c := newClock()
	insert(t, pool, c.Now(), outbox.YourTurn, 1, "off@example.org")
	insert(t, pool, c.Now(), outbox.Invitation, 1, "OFF@example.org")
	insert(t, pool, c.Now(), outbox.Reminder, 1, "digest@example.org")
	insert(t, pool, c.Now(), outbox.Link, 1, "digest@example.org")
	insert(t, pool, c.Now(), outbox.YourTurn, 1, "every@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), prefs: prefs})
	if _, err := w.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	got := sink.Messages()
	var to []string
	for _, m := range got {
		to = append(to, m.To[0])
	}
	if len(got) != 3 {
		t.Errorf("sent to %v, want the invitation, the link and every@", to)
	}
	if s := statusCounts(t, pool); s["skipped"] != 2 || s["sent"] != 3 {
		t.Errorf("statuses %v", s)
	}
}

func TestWorkerFailsAPermanentRefusalAtOnce(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{RejectRcpt: "nobody@example.org"})
	c := newClock()
	bad := insert(t, pool, c.Now(), outbox.YourTurn, 1, "nobody@example.org")[0]
	insert(t, pool, c.Now(), outbox.YourTurn, 1, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink)})
	if _, err := w.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := len(sink.Messages()); got != 1 {
		t.Errorf("delivered %d, want the good one", got)
	}
	failed, err := postgres.NewOutbox(pool).Failed(context.Background(), "g1")
	if err != nil || len(failed) != 1 || failed[0].ID != bad || failed[0].Attempts != 1 {
		t.Fatalf("failed = %+v, %v", failed, err)
	}
}
