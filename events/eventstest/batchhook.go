package eventstest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"pbem/events"
)

// The BatchHook cases: the hook runs once, sees how every append went, and
// its error undoes the whole batch. The hooks here do not call the store
// (the memory store holds its lock while a hook runs).

// testBatchHook checks what the hook sees: one call, out[i] for appends[i],
// Wrote() true exactly for the written appends, their events with positions
// and hashes filled, the same as AppendBatch then returns.
func testBatchHook(t *testing.T, s events.Store) {
	mustAppend(t, s, "old", 0, ev("A", 1))
	mustAppend(t, s, "stale", 0, ev("A", 1))
	first := mustAppend(t, s, "keyed", 0, keyed("K", 1, "k"))

	appends := []events.Append{
		{Stream: "new", Expected: 0, Events: []events.NewEvent{ev("N", 1), ev("N", 2)}},
		{Stream: "stale", Expected: 0, Events: []events.NewEvent{ev("X", 1)}},
		{Stream: "keyed", Expected: 0, Events: []events.NewEvent{keyed("K", 1, "k")}},
		{Stream: "", Expected: 0, Events: []events.NewEvent{ev("Y", 1)}},
		{Stream: "old", Expected: 1, Events: []events.NewEvent{ev("B", 2)}},
	}
	calls := 0
	var seen []events.Appended
	out := mustBatch(t, s, appends, func(_ context.Context, _ events.Tx, o []events.Appended) error {
		calls++
		seen = o
		return nil
	})
	if calls != 1 {
		t.Fatalf("the hook ran %d times, want once", calls)
	}
	if len(seen) != len(appends) {
		t.Fatalf("the hook saw %d results for %d appends", len(seen), len(appends))
	}
	wantWrote := []bool{true, false, false, false, true}
	for i, o := range seen {
		what := fmt.Sprintf("hook's out[%d]", i)
		if o.Wrote() != wantWrote[i] {
			t.Errorf("%s: Wrote() %v, want %v (err %v, replayed %v)", what, o.Wrote(), wantWrote[i], o.Err, o.Replayed)
		}
		if o.Replayed != out[i].Replayed || (o.Err == nil) != (out[i].Err == nil) {
			t.Errorf("%s: replayed %v err %v, AppendBatch says replayed %v err %v", what, o.Replayed, o.Err, out[i].Replayed, out[i].Err)
		}
		for j, e := range o.Events {
			if e.Position <= 0 || len(e.Hash) != events.HashSize || len(e.PrevHash) != events.HashSize {
				t.Errorf("%s: event %d lacks its position or hashes: %+v", what, j, e)
			}
		}
		sameEvents(t, what, o.Events, out[i].Events)
	}
	checkFailedView(t, "hook's stale append", seen[1], events.CodeConflict)
	checkReplayed(t, "hook's replayed append", seen[2], first)
	checkFailedView(t, "hook's invalid append", seen[3], events.CodeInvalid)
	checkWrote(t, "hook's new stream", seen[0], "new", 0, events.GenesisHash(), appends[0].Events)
	verify(t, s, "new", "old")
}

// testBatchHookError checks that a hook's error comes back unchanged and
// undoes the whole batch: no events, no versions, no keys taken.
func testBatchHookError(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	old := mustAppend(t, s, "old", 0, ev("A", 1))
	before := lastPosition(t, s)
	boom := errors.New("projection failed")
	key := keyed("K", 1, "k-rolled-back")
	appends := []events.Append{
		{Stream: "new", Expected: 0, Events: []events.NewEvent{ev("N", 1), ev("N", 2)}},
		{Stream: "old", Expected: 1, Events: []events.NewEvent{ev("B", 2)}},
		{Stream: "keyed", Expected: 0, Events: []events.NewEvent{key}},
		{Stream: "stale", Expected: 3, Events: []events.NewEvent{ev("X", 1)}},
	}
	calls := 0
	_, err := s.AppendBatch(ctx, appends, func(context.Context, events.Tx, []events.Appended) error {
		calls++
		return boom
	})
	if err != boom {
		t.Fatalf("AppendBatch with a failing hook: err %v, want the hook's error unchanged", err)
	}
	if calls != 1 {
		t.Errorf("the failing hook ran %d times, want once", calls)
	}
	sameEvents(t, "ReadStream(old) after the failed hook", mustRead(t, s, "old", 1), old)
	for _, st := range []string{"new", "keyed", "stale"} {
		if got := mustRead(t, s, st, 1); len(got) != 0 {
			t.Errorf("a rolled back batch left %d events in %q", len(got), st)
		}
	}
	if got := readAll(t, s, before); len(got) != 0 {
		t.Errorf("a rolled back batch left %d events in the log", len(got))
	}
	verify(t, s, "old")

	// The key is free: an Append with it writes instead of replaying.
	got := mustAppend(t, s, "keyed", 0, key)
	if got[0].Version != 1 || got[0].Position <= before {
		t.Errorf("append with the rolled back key: %+v", got[0])
	}
	// So are the versions: the same batch, hook nil, writes.
	appends[2].Events = []events.NewEvent{ev("K", 2)}
	appends[2].Expected = 1
	out := mustBatch(t, s, appends, nil)
	checkWrote(t, "new after the rollback", out[0], "new", 0, events.GenesisHash(), appends[0].Events)
	checkWrote(t, "old after the rollback", out[1], "old", 1, old[0].Hash, appends[1].Events)
	checkWrote(t, "keyed after the rollback", out[2], "keyed", 1, got[0].Hash, appends[2].Events)
	checkFailed(t, "stale after the rollback", out[3], events.CodeConflict)
	verify(t, s, "new", "old", "keyed")
}

// testBatchHookNothingWrote checks that the hook runs once even when no
// append of the batch wrote, and sees why each one did not.
func testBatchHookNothingWrote(t *testing.T, s events.Store) {
	first := mustAppend(t, s, "keyed", 0, keyed("K", 1, "k"))
	mustAppend(t, s, "g", 0, ev("A", 1))
	calls := 0
	var seen []events.Appended
	out := mustBatch(t, s, []events.Append{
		{Stream: "g", Expected: 0, Events: []events.NewEvent{ev("B", 2)}},
		{Stream: "keyed", Expected: 0, Events: []events.NewEvent{keyed("K", 1, "k")}},
		{Stream: "h", Expected: 0},
	}, func(_ context.Context, _ events.Tx, o []events.Appended) error {
		calls++
		seen = o
		return nil
	})
	if calls != 1 || len(seen) != 3 {
		t.Fatalf("the hook ran %d times and saw %d results, want once and 3", calls, len(seen))
	}
	checkFailedView(t, "hook: conflict", seen[0], events.CodeConflict)
	checkReplayed(t, "hook: replay", seen[1], first)
	checkFailedView(t, "hook: no events", seen[2], events.CodeInvalid)
	checkFailed(t, "AppendBatch: conflict", out[0], events.CodeConflict)
	checkReplayed(t, "AppendBatch: replay", out[1], first)
	checkFailed(t, "AppendBatch: no events", out[2], events.CodeInvalid)
	if got := mustRead(t, s, "g", 1); len(got) != 1 {
		t.Errorf("stream g has %d events, want 1", len(got))
	}
}

// testBatchNilHook checks that AppendBatch accepts a nil hook.
func testBatchNilHook(t *testing.T, s events.Store) {
	in := []events.NewEvent{ev("A", 1)}
	out := mustBatch(t, s, []events.Append{{Stream: "g", Expected: 0, Events: in}}, nil)
	checkWrote(t, "batch with a nil hook", out[0], "g", 0, events.GenesisHash(), in)
	sameEvents(t, "ReadStream(g)", mustRead(t, s, "g", 1), out[0].Events)
}
