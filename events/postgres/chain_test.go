package postgres_test

import (
	"bytes"
	"testing"

	"pbem/events"
	"pbem/events/postgres"
)

// An append chains the same hashes whether its store remembers the head
// (it wrote it) or reads it (another store wrote it), for one event or
// several.
func TestAppendChainsFromRememberedAndReadHeads(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	other := postgres.New(s.Pool())
	t.Cleanup(other.Close)
	batches := [][]events.NewEvent{
		{ev("A", `1`)},               // known: a new stream
		{ev("B", `2`), ev("C", `3`)}, // looked up by other: several events
		{ev("D", `4`)},               // looked up by s: one event
		{ev("E", `5`)},               // known to s
		{ev("F", `6`), ev("G", `7`)}, // known to s: several events
	}
	by := []*postgres.Store{s, other, s, s, s}
	var version int64
	for i, b := range batches {
		got, err := by[i].Append(ctx, "g", version, b)
		if err != nil {
			t.Fatalf("append at %d: %v", version, err)
		}
		version += int64(len(got))
	}
	all, err := s.ReadStream(ctx, "g", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 7 {
		t.Fatalf("%d events, want 7", len(all))
	}
	prev := make([]byte, 32)
	for i, e := range all {
		if e.Version != int64(i+1) || !bytes.Equal(e.PrevHash, prev) || len(e.Hash) != 32 {
			t.Fatalf("event %d: version %d, prev %x, want version %d, prev %x", i, e.Version, e.PrevHash, i+1, prev)
		}
		prev = e.Hash
	}
	if err := s.Verify(ctx, "g", nil); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	// At a version the stream has left or not reached, an append is a
	// conflict, including at the head other remembers (3).
	for _, c := range []struct {
		s  *postgres.Store
		at int64
	}{{s, 3}, {s, 9}, {other, 3}} {
		if _, err := c.s.Append(ctx, "g", c.at, []events.NewEvent{ev("X", `0`)}); !events.IsConflict(err) {
			t.Fatalf("append at %d: %v, want a conflict", c.at, err)
		}
	}
}
