package postgres_test

import (
	"testing"

	"pbem/events"
	"pbem/events/postgres"
)

// Two stores on one database: each remembers the heads it wrote, and a
// head another store moved past only makes the append lose (or look the
// head up), never write a broken chain.
func TestRememberedHeadsAcrossStores(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	a := newStore(t)
	b := postgres.New(a.Pool())
	t.Cleanup(b.Close)
	if _, err := a.Append(ctx, "g", 0, []events.NewEvent{ev("A", `1`)}); err != nil {
		t.Fatal(err)
	}
	// b moves the stream on; a still remembers version 1 as its head.
	if _, err := b.Append(ctx, "g", 1, []events.NewEvent{ev("B", `2`), ev("B", `3`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Append(ctx, "g", 1, []events.NewEvent{ev("C", `2`)}); !events.IsConflict(err) {
		t.Fatalf("append at a head another store moved past: %v, want a conflict", err)
	}
	// a at the real head: its remembered head is older, so it looks it up.
	if _, err := a.Append(ctx, "g", 3, []events.NewEvent{ev("C", `4`), ev("C", `5`)}); err != nil {
		t.Fatalf("append at the current version: %v", err)
	}
	// b remembers version 3, which a moved past.
	if _, err := b.Append(ctx, "g", 3, []events.NewEvent{ev("D", `4`)}); !events.IsConflict(err) {
		t.Fatalf("b at its stale head: %v, want a conflict", err)
	}
	if err := a.Verify(ctx, "g", nil); err != nil {
		t.Fatal(err)
	}
	evs, err := a.ReadStream(ctx, "g", 1)
	if err != nil || len(evs) != 5 {
		t.Fatalf("stream has %d events (%v), want 5", len(evs), err)
	}
}

// A keyed append of several events retried later at the stream's newer
// head (known to the store) is answered from the first append: the key
// stops its first event, and so the others too, leaving no gap.
func TestKeyedRetryAtNewerHeadWritesNothing(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	keyed := []events.NewEvent{ev("A", `1`), ev("A", `2`)}
	keyed[0].Meta.IdempotencyKey = "k"
	first, err := s.Append(ctx, "g", 0, keyed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "g", 2, []events.NewEvent{ev("B", `3`)}); err != nil {
		t.Fatal(err)
	}
	again, err := s.Append(ctx, "g", 3, keyed)
	if err != nil {
		t.Fatalf("retry at the newer head: %v", err)
	}
	if len(again) != 2 || again[0].Position != first[0].Position || again[1].Version != 2 {
		t.Fatalf("retry answered %+v, want the first append's events", again)
	}
	evs, err := s.ReadStream(ctx, "g", 1)
	if err != nil || len(evs) != 3 {
		t.Fatalf("stream has %d events (%v), want 3: the retry wrote", len(evs), err)
	}
	if err := s.Verify(ctx, "g", nil); err != nil {
		t.Fatal(err)
	}
}
