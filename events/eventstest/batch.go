package eventstest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/events"
)

// The AppendBatch cases of the suite: each append of a batch succeeds or
// fails on its own, as Append would; only an empty batch, a stream named
// twice, the hook's error and ctx's error refuse the whole batch.

// mustBatch runs AppendBatch and fails the test on a batch-wide error or an
// out of the wrong length.
func mustBatch(t *testing.T, s events.Store, appends []events.Append, hook events.BatchHook) []events.Appended {
	t.Helper()
	out, err := s.AppendBatch(ctxT(t), appends, hook)
	if err != nil {
		t.Fatalf("AppendBatch: %v", err)
	}
	if len(out) != len(appends) {
		t.Fatalf("AppendBatch returned %d results for %d appends", len(out), len(appends))
	}
	return out
}

// keyed is a NewEvent carrying an idempotency key.
func keyed(typ string, v any, key string) events.NewEvent {
	e := ev(typ, v)
	e.Meta.IdempotencyKey = key
	return e
}

// checkWrote checks that o wrote len(in) events to stream at versions
// from+1, from+2..., chained to prev, with increasing positions.
func checkWrote(t *testing.T, what string, o events.Appended, stream string, from int64, prev []byte, in []events.NewEvent) {
	t.Helper()
	if o.Err != nil || o.Replayed || !o.Wrote() {
		t.Errorf("%s: err %v, replayed %v, want written", what, o.Err, o.Replayed)
		return
	}
	if len(o.Events) != len(in) {
		t.Errorf("%s: %d events, want %d", what, len(o.Events), len(in))
		return
	}
	for i, e := range o.Events {
		if e.Stream != stream || e.Version != from+int64(i)+1 || e.Type != in[i].Type || e.Meta != in[i].Meta {
			t.Errorf("%s: event %d is %s v%d %s %+v, want %s v%d %s %+v", what, i,
				e.Stream, e.Version, e.Type, e.Meta, stream, from+int64(i)+1, in[i].Type, in[i].Meta)
		}
		if i > 0 && e.Position <= o.Events[i-1].Position {
			t.Errorf("%s: positions not increasing: %d then %d", what, o.Events[i-1].Position, e.Position)
		}
	}
	checkLinked(t, what, o.Events, prev)
}

// checkLinked checks that evs chain from prev: each PrevHash is the hash
// before it and each Hash is ChainHash(PrevHash, Canonical(event)).
func checkLinked(t *testing.T, what string, evs []events.Event, prev []byte) {
	t.Helper()
	for i := range evs {
		e := &evs[i]
		if !bytes.Equal(e.PrevHash, prev) {
			t.Errorf("%s: event %d (v%d) prev hash %x, want %x", what, i, e.Version, e.PrevHash, prev)
		}
		canon, err := events.Canonical(e)
		if err != nil {
			t.Fatalf("%s: Canonical: %v", what, err)
		}
		if h := events.ChainHash(e.PrevHash, canon); !bytes.Equal(e.Hash, h) {
			t.Errorf("%s: event %d (v%d) hash %x, want %x", what, i, e.Version, e.Hash, h)
		}
		prev = e.Hash
	}
}

// checkFailed checks that o failed with code and carries nil events, as
// Appended's doc says.
func checkFailed(t *testing.T, what string, o events.Appended, code string) {
	t.Helper()
	if o.Events != nil {
		t.Errorf("%s: failed append has events %v, want nil", what, o.Events)
	}
	checkFailedView(t, what, o, code)
}

// checkFailedView is checkFailed for the out a hook sees, where an empty
// non-nil Events is let pass: a store may hand the hook copies.
func checkFailedView(t *testing.T, what string, o events.Appended, code string) {
	t.Helper()
	var e *events.Error
	if !errors.As(o.Err, &e) || e.Code != code {
		t.Errorf("%s: err %v, want *events.Error with code %s", what, o.Err, code)
	}
	if len(o.Events) != 0 || o.Replayed || o.Wrote() {
		t.Errorf("%s: failed append has events %v, replayed %v, wrote %v", what, o.Events, o.Replayed, o.Wrote())
	}
}

// checkReplayed checks that o replayed the earlier append first.
func checkReplayed(t *testing.T, what string, o events.Appended, first []events.Event) {
	t.Helper()
	if o.Err != nil || !o.Replayed || o.Wrote() {
		t.Errorf("%s: err %v, replayed %v, wrote %v, want a replay", what, o.Err, o.Replayed, o.Wrote())
		return
	}
	sameEvents(t, what, o.Events, first)
}

func sameEvents(t *testing.T, what string, got, want []events.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d events, want %d", what, len(got), len(want))
		return
	}
	for i := range want {
		sameEvent(t, fmt.Sprintf("%s[%d]", what, i), got[i], want[i])
	}
}

// lastPosition is the position of the global log's last event (0 if empty).
func lastPosition(t *testing.T, s events.Store) int64 {
	t.Helper()
	all := readAll(t, s, 0)
	if len(all) == 0 {
		return 0
	}
	return all[len(all)-1].Position
}

func verify(t *testing.T, s events.Store, streams ...string) {
	t.Helper()
	for _, st := range streams {
		if err := s.Verify(ctxT(t), st, nil); err != nil {
			t.Errorf("Verify(%q): %v", st, err)
		}
	}
}

// testBatchMixed runs one batch whose appends go every way an append can:
// written (new and existing stream), conflict, invalid, replayed. Each fails
// or succeeds alone, and the written events follow everything before them
// in the global log.
func testBatchMixed(t *testing.T, s events.Store) {
	old := mustAppend(t, s, "old", 0, ev("A", 1), ev("B", 2))
	mustAppend(t, s, "stale", 0, ev("A", 1))
	firstIn := []events.NewEvent{keyed("K", 1, "move-7"), keyed("L", 2, "move-7")}
	first := mustAppend(t, s, "keyed", 0, firstIn...)
	mustAppend(t, s, "keyed", 2, ev("M", 3))
	before := lastPosition(t, s)

	in := [][]events.NewEvent{
		{ev("New", 1)},
		{ev("C", 3)},
		{ev("X", 1)},
		nil,
		{ev("Y", 1)},
		firstIn,
		{ev("Ok", 1), {Type: "Bad", Data: json.RawMessage(`nope`)}},
		{ev("Z1", 1), ev("Z2", 2)},
	}
	appends := []events.Append{
		{Stream: "new", Expected: 0, Events: in[0]},
		{Stream: "old", Expected: 2, Events: in[1]},
		{Stream: "stale", Expected: 0, Events: in[2]},
		{Stream: "no-events", Expected: 0, Events: in[3]},
		{Stream: "", Expected: 0, Events: in[4]},
		{Stream: "keyed", Expected: 0, Events: in[5]},
		{Stream: "bad-data", Expected: 0, Events: in[6]},
		{Stream: "after", Expected: 0, Events: in[7]},
	}
	out := mustBatch(t, s, appends, nil)

	checkWrote(t, "new stream", out[0], "new", 0, events.GenesisHash(), in[0])
	checkWrote(t, "existing stream", out[1], "old", 2, old[1].Hash, in[1])
	checkFailed(t, "stale version", out[2], events.CodeConflict)
	checkFailed(t, "no events", out[3], events.CodeInvalid)
	checkFailed(t, "empty stream id", out[4], events.CodeInvalid)
	checkReplayed(t, "replayed key", out[5], first)
	checkFailed(t, "invalid second event", out[6], events.CodeInvalid)
	checkWrote(t, "append after the failed ones", out[7], "after", 0, events.GenesisHash(), in[7])

	sameEvents(t, "ReadStream(new)", mustRead(t, s, "new", 1), out[0].Events)
	sameEvents(t, "ReadStream(old)", mustRead(t, s, "old", 1), append(old, out[1].Events...))
	sameEvents(t, "ReadStream(after)", mustRead(t, s, "after", 1), out[7].Events)
	for st, n := range map[string]int{"stale": 1, "no-events": 0, "bad-data": 0, "keyed": 3} {
		if got := mustRead(t, s, st, 1); len(got) != n {
			t.Errorf("ReadStream(%q): %d events, want %d (unchanged)", st, len(got), n)
		}
	}
	verify(t, s, "new", "old", "stale", "keyed", "after")

	// The written events take positions after every earlier event, each
	// its own, and ReadAll shows exactly them, in position order.
	var wrote []events.Event
	for _, o := range out {
		if o.Wrote() {
			wrote = append(wrote, o.Events...)
		}
	}
	slices.SortFunc(wrote, func(a, b events.Event) int { return cmp.Compare(a.Position, b.Position) })
	for i, e := range wrote {
		if e.Position <= before {
			t.Errorf("batch event %s v%d at position %d, not after the earlier events (last %d)", e.Stream, e.Version, e.Position, before)
		}
		if i > 0 && e.Position == wrote[i-1].Position {
			t.Errorf("two batch events share position %d", e.Position)
		}
	}
	var all []events.Event
	eventually(t, "ReadAll to show the batch's 4 events", func() bool {
		all = readAll(t, s, before)
		return len(all) >= len(wrote)
	})
	sameEvents(t, "ReadAll after the batch", all, wrote)
}

// testBatchMultiEvent runs two batches of multi-event appends on several
// streams: versions and hashes chain within an append, across the appends
// of a batch, and from one batch to the next; the keys a batch wrote are
// remembered.
func testBatchMultiEvent(t *testing.T, s events.Store) {
	pre := mustAppend(t, s, "a", 0, ev("A", 1), ev("A", 2))
	in1 := [][]events.NewEvent{
		{ev("A", 3), ev("A", 4), ev("A", 5)},
		{ev("B", 1), ev("B", 2)},
		{keyed("C", 1, "kc"), keyed("C", 2, "kc"), keyed("C", 3, "kc")},
	}
	out1 := mustBatch(t, s, []events.Append{
		{Stream: "a", Expected: 2, Events: in1[0]},
		{Stream: "b", Expected: 0, Events: in1[1]},
		{Stream: "c", Expected: 0, Events: in1[2]},
	}, nil)
	checkWrote(t, "batch 1, a", out1[0], "a", 2, pre[1].Hash, in1[0])
	checkWrote(t, "batch 1, b", out1[1], "b", 0, events.GenesisHash(), in1[1])
	checkWrote(t, "batch 1, c", out1[2], "c", 0, events.GenesisHash(), in1[2])

	in2 := [][]events.NewEvent{
		{ev("C", 4), ev("C", 5)},
		{ev("A", 6), ev("A", 7)},
		{ev("B", 3), ev("B", 4), ev("B", 5)},
	}
	out2 := mustBatch(t, s, []events.Append{
		{Stream: "c", Expected: 3, Events: in2[0]},
		{Stream: "a", Expected: 5, Events: in2[1]},
		{Stream: "b", Expected: 2, Events: in2[2]},
	}, nil)
	checkWrote(t, "batch 2, c", out2[0], "c", 3, out1[2].Events[2].Hash, in2[0])
	checkWrote(t, "batch 2, a", out2[1], "a", 5, out1[0].Events[2].Hash, in2[1])
	checkWrote(t, "batch 2, b", out2[2], "b", 2, out1[1].Events[1].Hash, in2[2])

	streams := map[string][]events.Event{
		"a": append(append(pre, out1[0].Events...), out2[1].Events...),
		"b": append(out1[1].Events, out2[2].Events...),
		"c": append(out1[2].Events, out2[0].Events...),
	}
	for st, want := range streams {
		sameEvents(t, "ReadStream("+st+")", mustRead(t, s, st, 1), want)
	}
	verify(t, s, "a", "b", "c")

	// The key the first batch wrote to c replays, through Append and
	// through AppendBatch, and writes nothing.
	again, err := s.Append(ctxT(t), "c", 0, in1[2])
	if err != nil {
		t.Fatalf("Append retrying batch 1's key: %v", err)
	}
	sameEvents(t, "Append retrying batch 1's key", again, out1[2].Events)
	out3 := mustBatch(t, s, []events.Append{{Stream: "c", Expected: 5, Events: in1[2]}}, nil)
	checkReplayed(t, "AppendBatch retrying batch 1's key", out3[0], out1[2].Events)
	if got := mustRead(t, s, "c", 1); len(got) != 5 {
		t.Errorf("stream c has %d events after the retries, want 5", len(got))
	}
}

// testBatchRefused runs batches AppendBatch refuses as a whole: CodeInvalid,
// the hook not run, nothing written.
func testBatchRefused(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	mustAppend(t, s, "g", 0, ev("A", 1))
	before := lastPosition(t, s)
	cases := []struct {
		name    string
		appends []events.Append
	}{
		{"nil batch", nil},
		{"empty batch", []events.Append{}},
		{"same stream twice", []events.Append{
			{Stream: "g", Expected: 1, Events: []events.NewEvent{ev("B", 2)}},
			{Stream: "h", Expected: 0, Events: []events.NewEvent{ev("C", 1)}},
			{Stream: "g", Expected: 1, Events: []events.NewEvent{ev("D", 2)}},
		}},
		{"same new stream twice", []events.Append{
			{Stream: "n", Expected: 0, Events: []events.NewEvent{ev("A", 1)}},
			{Stream: "n", Expected: 1, Events: []events.NewEvent{ev("B", 2)}},
		}},
		{"same stream twice, one invalid", []events.Append{
			{Stream: "h", Expected: 0, Events: []events.NewEvent{ev("A", 1)}},
			{Stream: "x", Expected: 0},
			{Stream: "x", Expected: 0, Events: []events.NewEvent{ev("A", 1)}},
		}},
	}
	for _, tc := range cases {
		ran := false
		_, err := s.AppendBatch(ctx, tc.appends, func(context.Context, events.Tx, []events.Appended) error {
			ran = true
			return nil
		})
		var e *events.Error
		if !errors.As(err, &e) || e.Code != events.CodeInvalid {
			t.Errorf("%s: err %v, want *events.Error with CodeInvalid", tc.name, err)
		}
		if ran {
			t.Errorf("%s: the hook ran for a refused batch", tc.name)
		}
	}
	if got := mustRead(t, s, "g", 1); len(got) != 1 {
		t.Errorf("stream g has %d events after refused batches, want 1", len(got))
	}
	for _, st := range []string{"h", "n", "x"} {
		if got := mustRead(t, s, st, 1); len(got) != 0 {
			t.Errorf("a refused batch wrote %d events to %q", len(got), st)
		}
	}
	if got := readAll(t, s, before); len(got) != 0 {
		t.Errorf("refused batches wrote %d events to the log", len(got))
	}
}

// testBatchBadAppend checks that every kind of bad input Append refuses
// fails alone inside a batch, next to an append that writes.
func testBatchBadAppend(t *testing.T, s events.Store) {
	good := []events.NewEvent{ev("A", 1)}
	cases := []struct {
		name string
		a    events.Append
	}{
		{"empty stream id", events.Append{Stream: "", Events: good}},
		{"over-long stream id", events.Append{Stream: strings.Repeat("s", events.MaxStreamLen+1), Events: good}},
		{"NUL in stream id", events.Append{Stream: "b\x00", Events: good}},
		{"negative expected version", events.Append{Stream: "b", Expected: -1, Events: good}},
		{"no events", events.Append{Stream: "b"}},
		{"too many events", events.Append{Stream: "b", Events: slices.Repeat(good, events.MaxAppend+1)}},
		{"empty type", events.Append{Stream: "b", Events: []events.NewEvent{{Data: json.RawMessage(`1`)}}}},
		{"invalid JSON", events.Append{Stream: "b", Events: []events.NewEvent{{Type: "A", Data: json.RawMessage(`{"a":`)}}}},
		{"empty data", events.Append{Stream: "b", Events: []events.NewEvent{{Type: "A"}}}},
		{"invalid UTF-8 in key", events.Append{Stream: "b", Events: []events.NewEvent{keyed("A", 1, "k\xff")}}},
	}
	for i, tc := range cases {
		st := fmt.Sprint("good-", i)
		out := mustBatch(t, s, []events.Append{tc.a, {Stream: st, Expected: 0, Events: good}}, nil)
		checkFailed(t, tc.name, out[0], events.CodeInvalid)
		checkWrote(t, tc.name+": the good append", out[1], st, 0, events.GenesisHash(), good)
	}
	if got := mustRead(t, s, "b", 1); len(got) != 0 {
		t.Errorf("bad appends wrote %d events", len(got))
	}
	var all []events.Event
	eventually(t, "ReadAll to show the good appends", func() bool { all = readAll(t, s, 0); return len(all) >= len(cases) })
	if len(all) != len(cases) {
		t.Errorf("the log has %d events, want %d (one per good append)", len(all), len(cases))
	}
}

// testBatchCancelled checks that a batch under an ended context returns an
// error wrapping ctx's and writes nothing.
func testBatchCancelled(t *testing.T, s events.Store) {
	mustAppend(t, s, "g", 0, ev("A", 1))
	ctx, cancel := context.WithCancel(ctxT(t))
	cancel()
	out, err := s.AppendBatch(ctx, []events.Append{
		{Stream: "g", Expected: 1, Events: []events.NewEvent{ev("B", 2)}},
		{Stream: "h", Expected: 0, Events: []events.NewEvent{keyed("C", 1, "kh")}},
	}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("AppendBatch with a cancelled context: out %v, err %v, want context.Canceled", out, err)
	}
	if got := mustRead(t, s, "g", 1); len(got) != 1 {
		t.Errorf("stream g has %d events, want 1", len(got))
	}
	if got := mustRead(t, s, "h", 1); len(got) != 0 {
		t.Errorf("stream h has %d events, want 0", len(got))
	}
	// Nothing was taken: the version and the key are free.
	got := mustAppend(t, s, "h", 0, keyed("C", 1, "kh"))
	if got[0].Version != 1 {
		t.Errorf("append after the cancelled batch: %+v", got[0])
	}
}

// testBatchNotify checks that a batch's commit wakes Notify's listeners.
func testBatchNotify(t *testing.T, s events.Store) {
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	c, err := s.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Let a store that listens on a connection start listening.
	time.Sleep(100 * time.Millisecond)
	mustBatch(t, s, []events.Append{
		{Stream: "g", Expected: 0, Events: []events.NewEvent{ev("A", 1)}},
		{Stream: "h", Expected: 0, Events: []events.NewEvent{ev("B", 1)}},
	}, nil)
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatal("no notification after a batch")
	}
}
