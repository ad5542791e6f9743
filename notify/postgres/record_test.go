package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// flakyStore is an outbox whose Finish fails its first n calls, as while
// the database restarts or fails over.
type flakyStore struct {
	notify.OutboxStore
	fails atomic.Int32
}

func (f *flakyStore) Finish(ctx context.Context, now time.Time, o []notify.Outcome) error {
	if f.fails.Add(-1) >= 0 {
		return errors.New("connection refused")
	}
	return f.OutboxStore.Finish(ctx, now, o)
}

// TestWorkerRecordsSentRowsThroughAnOutage: a worker that sent a batch
// while the database went away records it once the database is back, so
// the rows are not sent again when their lease ends.
func TestWorkerRecordsSentRowsThroughAnOutage(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	c := newClock()
	store := &flakyStore{OutboxStore: postgres.NewOutbox(pool)}
	store.fails.Store(3)
	ids := insert(t, pool, c.Now(), outbox.YourTurn, 2, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: smtpSender(t, sink), store: store, recordFor: 10 * time.Second})
	if n, err := w.RunOnce(context.Background()); n != 2 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	c.Add(2 * time.Minute) // every lease has run out
	if n, err := w.RunOnce(context.Background()); n != 0 || err != nil {
		t.Fatalf("after the lease: %d rows taken again (%v)", n, err)
	}
	got := messageIDs(t, sink.Messages())
	for _, id := range ids {
		if n := got[fmt.Sprintf("<outbox-%d.g1@pbem.example.org>", id)]; n != 1 {
			t.Errorf("row %d received %d times, want 1", id, n)
		}
	}
}
