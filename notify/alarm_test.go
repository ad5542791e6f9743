package notify

import (
	"context"
	"testing"
	"time"
)

// TestAlarmKeepsTheEarliest: the alarm keeps the earliest time it was told
// of, says how long until it, and rings once when it has come.
func TestAlarmKeepsTheEarliest(t *testing.T) {
	a := newAlarm()
	t0 := time.Date(2026, 12, 2, 4, 0, 0, 0, time.UTC)
	if ring, wait := a.due(t0); ring || wait != 0 {
		t.Fatalf("an alarm told nothing: ring %v, wait %v", ring, wait)
	}
	a.at(t0.Add(2 * time.Minute))
	a.at(t0.Add(time.Minute))
	a.at(t0.Add(3 * time.Minute))
	if ring, wait := a.due(t0); ring || wait != time.Minute {
		t.Fatalf("at t0: ring %v, wait %v; want a wait of a minute", ring, wait)
	}
	if ring, _ := a.due(t0.Add(time.Minute)); !ring {
		t.Fatal("the alarm did not ring when its time came")
	}
	if ring, wait := a.due(t0.Add(time.Minute)); ring || wait != 0 {
		t.Fatalf("a rung alarm rang again (%v) or waits %v", ring, wait)
	}
}

// countingStore is an OutboxStore with nothing to send that counts its
// claims.
type countingStore struct{ claims chan time.Time }

func (s *countingStore) Claim(_ context.Context, now time.Time, _ int, _ time.Duration) ([]Row, error) {
	s.claims <- now
	return nil, nil
}
func (s *countingStore) Finish(context.Context, time.Time, []Outcome) error { return nil }
func (s *countingStore) Release(context.Context, time.Time, []Row) error    { return nil }
func (s *countingStore) Failed(context.Context, string) ([]FailedEmail, error) {
	return nil, nil
}

type nopSender struct{}

func (nopSender) Send(_ context.Context, msgs []*Message) []error { return make([]error, len(msgs)) }

// TestWorkerClaimsWhenDue: a worker that polls once an hour claims when
// an append tells it an email is due (Due), without a wake-up, at that
// time and not before it.
func TestWorkerClaimsWhenDue(t *testing.T) {
	store := &countingStore{claims: make(chan time.Time, 10)}
	w, err := NewWorker(WorkerConfig{Store: store, Sender: nopSender{}, Renderer: testRenderer(t), Senders: 1, Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = w.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	<-store.claims // the sender's first look, at start
	due := time.Now().Add(50 * time.Millisecond)
	w.Due(due)
	select {
	case at := <-store.claims:
		if at.Before(due) {
			t.Fatalf("claimed at %v, before the email was due at %v", at, due)
		}
	case <-time.After(time.Minute):
		t.Fatal("no claim a minute after an email was due")
	}
}
