package postgres_test

import (
	"bytes"
	"testing"

	"pbem/events"
)

// Appends of one event take a plain statement, longer ones the
// events_append function: both chain the same hashes.
func TestSingleAndMultiEventAppendsChain(t *testing.T) {
	ctx := ctxT(t)
	s := newStore(t)
	batches := [][]events.NewEvent{
		{ev("A", `1`)},
		{ev("B", `2`), ev("C", `3`)},
		{ev("D", `4`)},
		{ev("E", `5`)},
	}
	var version int64
	for _, b := range batches {
		got, err := s.Append(ctx, "g", version, b)
		if err != nil {
			t.Fatalf("append at %d: %v", version, err)
		}
		version += int64(len(got))
	}
	all, err := s.ReadStream(ctx, "g", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 5 {
		t.Fatalf("%d events, want 5", len(all))
	}
	prev := make([]byte, 32)
	for i, e := range all {
		if e.Version != int64(i+1) || !bytes.Equal(e.PrevHash, prev) || len(e.Hash) != 32 {
			t.Fatalf("event %d: version %d, prev %x, want version %d, prev %x", i, e.Version, e.PrevHash, i+1, prev)
		}
		prev = e.Hash
	}
	if err := s.Verify(ctx, "g"); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	// A single event at a version the stream has left, or has not reached,
	// is a conflict.
	for _, at := range []int64{3, 9} {
		if _, err := s.Append(ctx, "g", at, []events.NewEvent{ev("X", `0`)}); !events.IsConflict(err) {
			t.Fatalf("append at %d: %v, want a conflict", at, err)
		}
	}
}
