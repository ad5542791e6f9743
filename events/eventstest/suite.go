// Package eventstest is the conformance suite every events.Store must pass:
// the memory store and the Postgres store run the same tests, so that code
// tested against one behaves the same on the other.
//
// Use it from a store's tests:
//
//	func TestConformance(t *testing.T) {
//		eventstest.Run(t, func(t *testing.T) events.Store { return newStore(t) })
//	}
package eventstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"pbem/events"
)

// Run runs the conformance suite. newStore must return an empty store that
// lives until t ends; it is called once per subtest.
func Run(t *testing.T, newStore func(t *testing.T) events.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s events.Store)
	}{
		{"AppendAndRead", testAppendAndRead},
		{"ReadStreamFrom", testReadStreamFrom},
		{"CanonicalData", testCanonicalData},
		{"ExpectedVersionConflicts", testConflicts},
		{"Idempotency", testIdempotency},
		{"HookSeesEventsAndRunsInOrder", testHooks},
		{"HookErrorRollsBack", testHookError},
		{"BadInput", testBadInput},
		{"RaceOnOneStream", testRace},
		{"LateCommitNeverSkipped", testLateCommit},
		{"Notify", testNotify},
		{"VerifyGoodChains", testVerify},
		{"ReadAllLimit", testReadAllLimit},
		{"BatchMixedOutcomes", testBatchMixed},
		{"BatchMultiEventAppends", testBatchMultiEvent},
		{"BatchRefusedWhole", testBatchRefused},
		{"BatchBadAppendFailsAlone", testBatchBadAppend},
		{"BatchCancelledContext", testBatchCancelled},
		{"BatchNotify", testBatchNotify},
		{"BatchHookSeesOutcomes", testBatchHook},
		{"BatchHookErrorRollsBack", testBatchHookError},
		{"BatchHookRunsWhenNothingWrote", testBatchHookNothingWrote},
		{"BatchNilHook", testBatchNilHook},
		{"BatchRace", testBatchRace},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.fn(t, newStore(t))
		})
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// ev is a NewEvent of type typ with data v (marshalled).
func ev(typ string, v any) events.NewEvent {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return events.NewEvent{Type: typ, Data: b}
}

func mustAppend(t *testing.T, s events.Store, stream string, expected int64, evs ...events.NewEvent) []events.Event {
	t.Helper()
	got, err := s.Append(ctxT(t), stream, expected, evs)
	if err != nil {
		t.Fatalf("Append(%q, %d): %v", stream, expected, err)
	}
	return got
}

func mustRead(t *testing.T, s events.Store, stream string, from int64) []events.Event {
	t.Helper()
	got, err := s.ReadStream(ctxT(t), stream, from)
	if err != nil {
		t.Fatalf("ReadStream(%q, %d): %v", stream, from, err)
	}
	return got
}

// readAll drains the global log after position after.
func readAll(t *testing.T, s events.Store, after int64) []events.Event {
	t.Helper()
	var out []events.Event
	for {
		got, err := s.ReadAll(ctxT(t), after, 100)
		if err != nil {
			t.Fatalf("ReadAll(%d): %v", after, err)
		}
		if len(got) == 0 {
			return out
		}
		for _, e := range got {
			if e.Position <= after {
				t.Fatalf("ReadAll(%d) returned position %d: positions must increase", after, e.Position)
			}
			after = e.Position
		}
		out = append(out, got...)
	}
}

// eventually polls f until it returns true or 10s pass. Stores may hold
// events back from ReadAll while other transactions run, so tests that read
// the global log wait for it to catch up.
func eventually(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func sameEvent(t *testing.T, what string, got, want events.Event) {
	t.Helper()
	if got.Position != want.Position || got.Stream != want.Stream || got.Version != want.Version ||
		got.Type != want.Type || !bytes.Equal(got.Data, want.Data) || got.Meta != want.Meta ||
		!got.RecordedAt.Equal(want.RecordedAt) || !bytes.Equal(got.PrevHash, want.PrevHash) || !bytes.Equal(got.Hash, want.Hash) {
		t.Errorf("%s: got %+v, want %+v", what, got, want)
	}
}

func testAppendAndRead(t *testing.T, s events.Store) {
	meta := events.Metadata{Actor: "seat:1", RequestID: "req-1"}
	in := []events.NewEvent{
		{Type: "GameCreated", Data: json.RawMessage(`{"players":2}`), Meta: meta},
		{Type: "CardDrawn", Data: json.RawMessage(`{"card":"K"}`), Meta: meta},
		{Type: "Note", Data: json.RawMessage(`"text"`), Meta: meta},
	}
	before := time.Now().UTC().Add(-time.Second)
	got := mustAppend(t, s, "game-1", 0, in...)
	if len(got) != 3 {
		t.Fatalf("Append returned %d events, want 3", len(got))
	}
	for i, e := range got {
		if e.Stream != "game-1" || e.Version != int64(i+1) || e.Type != in[i].Type || e.Meta != meta {
			t.Errorf("event %d: %+v", i, e)
		}
		if !bytes.Equal(e.Data, in[i].Data) {
			t.Errorf("event %d data %s, want %s", i, e.Data, in[i].Data)
		}
		if e.RecordedAt.Location() != time.UTC || e.RecordedAt.Before(before) || e.RecordedAt.Nanosecond()%1000 != 0 {
			t.Errorf("event %d recorded at %v: want UTC, recent, microseconds", i, e.RecordedAt)
		}
		if i > 0 && e.Position <= got[i-1].Position {
			t.Errorf("positions not increasing: %d then %d", got[i-1].Position, e.Position)
		}
		prev := events.GenesisHash()
		if i > 0 {
			prev = got[i-1].Hash
		}
		if !bytes.Equal(e.PrevHash, prev) {
			t.Errorf("event %d prev hash %x, want %x", i, e.PrevHash, prev)
		}
		canon, err := events.Canonical(&e)
		if err != nil {
			t.Fatal(err)
		}
		if h := events.ChainHash(prev, canon); !bytes.Equal(e.Hash, h) {
			t.Errorf("event %d hash %x, want %x", i, e.Hash, h)
		}
	}
	more := mustAppend(t, s, "game-1", 3, ev("Next", map[string]int{"n": 4}))
	if more[0].Version != 4 || !bytes.Equal(more[0].PrevHash, got[2].Hash) || more[0].Position <= got[2].Position {
		t.Errorf("second append: %+v", more[0])
	}
	other := mustAppend(t, s, "game-2", 0, ev("GameCreated", map[string]int{"players": 3}))
	if other[0].Version != 1 || !bytes.Equal(other[0].PrevHash, events.GenesisHash()) {
		t.Errorf("other stream: %+v", other[0])
	}

	read := mustRead(t, s, "game-1", 0)
	want := append(got, more...)
	if len(read) != len(want) {
		t.Fatalf("ReadStream: %d events, want %d", len(read), len(want))
	}
	for i := range want {
		sameEvent(t, fmt.Sprintf("ReadStream[%d]", i), read[i], want[i])
	}
	if unknown := mustRead(t, s, "no-such-game", 1); unknown == nil || len(unknown) != 0 {
		t.Errorf("unknown stream: got %v, want an empty non-nil slice", unknown)
	}

	var all []events.Event
	eventually(t, "ReadAll to show all 5 events", func() bool {
		all = readAll(t, s, 0)
		return len(all) == 5
	})
	wantAll := append(want, other...)
	for i := range wantAll {
		sameEvent(t, fmt.Sprintf("ReadAll[%d]", i), all[i], wantAll[i])
	}
	if rest := readAll(t, s, all[2].Position); len(rest) != 2 || rest[0].Position != all[3].Position {
		t.Errorf("ReadAll after position %d: %d events", all[2].Position, len(rest))
	}
}

func testReadStreamFrom(t *testing.T, s events.Store) {
	var in []events.NewEvent
	for i := 1; i <= 5; i++ {
		in = append(in, ev("N", i))
	}
	mustAppend(t, s, "g", 0, in...)
	for _, tc := range []struct {
		from  int64
		first int64
		n     int
	}{{-3, 1, 5}, {0, 1, 5}, {1, 1, 5}, {3, 3, 3}, {5, 5, 1}, {6, 0, 0}, {100, 0, 0}} {
		got := mustRead(t, s, "g", tc.from)
		if len(got) != tc.n || (tc.n > 0 && got[0].Version != tc.first) {
			t.Errorf("ReadStream from %d: %d events starting at %v, want %d from %d", tc.from, len(got), got, tc.n, tc.first)
		}
	}
}

func testCanonicalData(t *testing.T, s events.Store) {
	got := mustAppend(t, s, "g", 0, events.NewEvent{Type: "T", Data: json.RawMessage(" {\"b\": [1, 2.50, {\"z\":true,\"a\":null}], \"a\" : \"<&>\"} ")})
	want := `{"a":"<&>","b":[1,2.50,{"a":null,"z":true}]}`
	if string(got[0].Data) != want {
		t.Errorf("stored data %s, want canonical %s", got[0].Data, want)
	}
	if read := mustRead(t, s, "g", 1); string(read[0].Data) != want {
		t.Errorf("read data %s, want %s", read[0].Data, want)
	}
}

func testConflicts(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	mustAppend(t, s, "g", 0, ev("A", 1), ev("B", 2))
	for _, expected := range []int64{0, 1, 3, 10} {
		_, err := s.Append(ctx, "g", expected, []events.NewEvent{ev("C", 3)})
		if !events.IsConflict(err) {
			t.Errorf("Append at expected %d on a stream at 2: err %v, want a conflict", expected, err)
		}
		var e *events.Error
		if !errors.As(err, &e) || e.Code != events.CodeConflict {
			t.Errorf("conflict error is not an *events.Error: %T %v", err, err)
		}
	}
	if _, err := s.Append(ctx, "new", 1, []events.NewEvent{ev("A", 1)}); !events.IsConflict(err) {
		t.Errorf("Append at expected 1 on a new stream: err %v, want a conflict", err)
	}
	if got := mustRead(t, s, "g", 1); len(got) != 2 {
		t.Errorf("conflicting appends wrote: stream has %d events", len(got))
	}
	if got := mustRead(t, s, "new", 1); len(got) != 0 {
		t.Errorf("conflicting append created a stream")
	}
	mustAppend(t, s, "g", 2, ev("C", 3))
}

func testIdempotency(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	key := events.Metadata{Actor: "seat:1", IdempotencyKey: "move-42"}
	in := []events.NewEvent{{Type: "Played", Data: json.RawMessage(`1`), Meta: key}, {Type: "Drew", Data: json.RawMessage(`2`), Meta: key}}
	first := mustAppend(t, s, "g", 0, in...)

	// Same append again: same result, nothing written.
	again, err := s.Append(ctx, "g", 0, in)
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	if len(again) != len(first) {
		t.Fatalf("retry returned %d events, want %d", len(again), len(first))
	}
	for i := range first {
		sameEvent(t, fmt.Sprintf("retry[%d]", i), again[i], first[i])
	}
	// Another append moves the stream on; the retry still returns the first result.
	mustAppend(t, s, "g", 2, ev("Other", 3))
	stale, err := s.Append(ctx, "g", 0, in)
	if err != nil || len(stale) != 2 || stale[0].Position != first[0].Position {
		t.Errorf("retry at a stale version: %v %v", stale, err)
	}
	// A retry at the current version writes nothing either.
	current, err := s.Append(ctx, "g", 3, in)
	if err != nil || len(current) != 2 || current[1].Position != first[1].Position {
		t.Errorf("retry at the current version: %v %v", current, err)
	}
	// A hook is not run again for a retry.
	ran := false
	if _, err := s.Append(ctx, "g", 0, in, func(context.Context, events.Tx, []events.Event) error { ran = true; return nil }); err != nil || ran {
		t.Errorf("retry with a hook: err %v, hook ran %v", err, ran)
	}
	if got := mustRead(t, s, "g", 1); len(got) != 3 {
		t.Errorf("stream has %d events after retries, want 3", len(got))
	}
	// The key is per stream.
	if got := mustAppend(t, s, "h", 0, in...); got[0].Stream != "h" {
		t.Errorf("same key on another stream: %+v", got[0])
	}
	// A new key at a stale version is a conflict.
	_, err = s.Append(ctx, "g", 0, []events.NewEvent{{Type: "X", Data: json.RawMessage(`1`), Meta: events.Metadata{IdempotencyKey: "other"}}})
	if !events.IsConflict(err) {
		t.Errorf("new key at a stale version: %v, want a conflict", err)
	}
	all := readAll(t, s, 0)
	eventually(t, "ReadAll to show 5 events", func() bool { all = readAll(t, s, 0); return len(all) == 5 })
}

func testHooks(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	var order []string
	var seen []events.Event
	h1 := func(_ context.Context, _ events.Tx, evs []events.Event) error {
		order = append(order, "h1")
		seen = evs
		return nil
	}
	h2 := func(context.Context, events.Tx, []events.Event) error { order = append(order, "h2"); return nil }
	got, err := s.Append(ctx, "g", 0, []events.NewEvent{ev("A", 1), ev("B", 2)}, h1, h2)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(order) != "[h1 h2]" {
		t.Errorf("hooks ran as %v, want [h1 h2]", order)
	}
	if len(seen) != 2 {
		t.Fatalf("hook saw %d events", len(seen))
	}
	for i := range got {
		sameEvent(t, fmt.Sprintf("hook event %d", i), seen[i], got[i])
	}
}

func testHookError(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	mustAppend(t, s, "g", 0, ev("A", 1))
	boom := errors.New("projection failed")
	second := false
	_, err := s.Append(ctx, "g", 1, []events.NewEvent{ev("B", 2), ev("C", 3)},
		func(context.Context, events.Tx, []events.Event) error { return boom },
		func(context.Context, events.Tx, []events.Event) error { second = true; return nil })
	if err != boom {
		t.Fatalf("Append with a failing hook: err %v, want the hook's error unchanged", err)
	}
	if second {
		t.Error("the hook after a failing one ran")
	}
	if got := mustRead(t, s, "g", 1); len(got) != 1 {
		t.Errorf("stream has %d events after a failed hook, want 1", len(got))
	}
	// The key of a rolled back append is free again, and so is the version.
	key := events.NewEvent{Type: "K", Data: json.RawMessage(`{}`), Meta: events.Metadata{IdempotencyKey: "k"}}
	if _, err := s.Append(ctx, "g", 1, []events.NewEvent{key}, func(context.Context, events.Tx, []events.Event) error { return boom }); err != boom {
		t.Fatalf("failing hook with a key: %v", err)
	}
	got := mustAppend(t, s, "g", 1, key)
	if got[0].Version != 2 || got[0].Type != "K" {
		t.Errorf("append after a rolled back one: %+v", got[0])
	}
	var all []events.Event
	eventually(t, "ReadAll to show 2 events", func() bool { all = readAll(t, s, 0); return len(all) >= 2 })
	if len(all) != 2 {
		t.Errorf("global log has %d events, want 2", len(all))
	}
}

func testBadInput(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	good := []events.NewEvent{ev("A", 1)}
	cases := []struct {
		name     string
		stream   string
		expected int64
		evs      []events.NewEvent
	}{
		{"empty stream id", "", 0, good},
		{"negative expected version", "g", -1, good},
		{"no events", "g", 0, nil},
		{"empty type", "g", 0, []events.NewEvent{{Type: "", Data: json.RawMessage(`1`)}}},
		{"invalid JSON", "g", 0, []events.NewEvent{{Type: "A", Data: json.RawMessage(`{"a":`)}}},
		{"two JSON values", "g", 0, []events.NewEvent{{Type: "A", Data: json.RawMessage(`1 2`)}}},
		{"empty data", "g", 0, []events.NewEvent{{Type: "A"}}},
		{"invalid second event", "g", 0, []events.NewEvent{ev("A", 1), {Type: "B", Data: json.RawMessage(`nope`)}}},
		{"NUL in stream id", "g\x00", 0, good},
		{"invalid UTF-8 type", "g", 0, []events.NewEvent{{Type: "\xff", Data: json.RawMessage(`1`)}}},
		{"NUL in actor", "g", 0, []events.NewEvent{{Type: "A", Data: json.RawMessage(`1`), Meta: events.Metadata{Actor: "a\x00"}}}},
	}
	for _, tc := range cases {
		_, err := s.Append(ctx, tc.stream, tc.expected, tc.evs)
		if !events.IsInvalid(err) {
			t.Errorf("%s: err %v, want CodeInvalid", tc.name, err)
		}
	}
	if _, err := s.ReadAll(ctx, 0, 0); !events.IsInvalid(err) {
		t.Errorf("ReadAll with limit 0: err %v, want CodeInvalid", err)
	}
	if got := mustRead(t, s, "g", 1); len(got) != 0 {
		t.Errorf("bad input wrote %d events", len(got))
	}
	if got := readAll(t, s, 0); len(got) != 0 {
		t.Errorf("bad input wrote %d events to the log", len(got))
	}
}

func testRace(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	mustAppend(t, s, "g", 0, ev("A", 0))
	const n = 50
	var wg sync.WaitGroup
	errs := make([]error, n)
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = s.Append(ctx, "g", 1, []events.NewEvent{ev("Move", i), ev("Then", i)})
		}()
	}
	close(start)
	wg.Wait()
	ok, conflicts := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case events.IsConflict(err):
			conflicts++
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 || conflicts != n-1 {
		t.Errorf("%d appends succeeded and %d conflicted, want 1 and %d", ok, conflicts, n-1)
	}
	got := mustRead(t, s, "g", 1)
	if len(got) != 3 {
		t.Fatalf("stream has %d events, want 3", len(got))
	}
	for i, e := range got {
		if e.Version != int64(i+1) {
			t.Errorf("event %d has version %d", i, e.Version)
		}
	}
	if err := s.Verify(ctx, "g", nil); err != nil {
		t.Errorf("Verify after the race: %v", err)
	}
}

// testLateCommit runs writers whose appends commit out of position order (a
// hook sleeps in some of them) while a reader polls the global log. The
// reader must end with every event exactly once, in position order.
func testLateCommit(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	const writers, perWriter = 8, 12
	var wg sync.WaitGroup
	done := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stream := fmt.Sprintf("late-%d", w)
			for i := range perWriter {
				var hooks []events.AppendHook
				if (w+i)%3 == 0 {
					d := time.Duration(5+(w*7+i*3)%20) * time.Millisecond
					hooks = append(hooks, func(context.Context, events.Tx, []events.Event) error {
						time.Sleep(d)
						return nil
					})
				}
				if _, err := s.Append(ctx, stream, int64(i), []events.NewEvent{ev("E", i)}, hooks...); err != nil {
					t.Errorf("writer %d append %d: %v", w, i, err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	var got []events.Event
	var after int64
	poll := func() {
		evs, err := s.ReadAll(ctx, after, 7)
		if err != nil {
			t.Fatalf("ReadAll: %v", err)
		}
		for _, e := range evs {
			if e.Position <= after {
				t.Fatalf("ReadAll(after %d) returned position %d", after, e.Position)
			}
			after = e.Position
			got = append(got, e)
		}
	}
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
			poll()
			time.Sleep(time.Millisecond)
		}
	}
	eventually(t, "the reader to catch up", func() bool { poll(); return len(got) >= writers*perWriter })
	if len(got) != writers*perWriter {
		t.Fatalf("reader saw %d events, want %d", len(got), writers*perWriter)
	}
	seen := map[string]bool{}
	for _, e := range got {
		k := fmt.Sprintf("%s/%d", e.Stream, e.Version)
		if seen[k] {
			t.Errorf("event %s seen twice", k)
		}
		seen[k] = true
	}
	all := readAll(t, s, 0)
	if len(all) != len(got) {
		t.Fatalf("a fresh read sees %d events, the poller %d", len(all), len(got))
	}
	for i := range all {
		if all[i].Position != got[i].Position {
			t.Fatalf("poller order differs from a fresh read at %d", i)
		}
	}
}

func testNotify(t *testing.T, s events.Store) {
	ctx, cancel := context.WithCancel(ctxT(t))
	c, err := s.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := s.Notify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Let a store that listens on a connection start listening.
	time.Sleep(100 * time.Millisecond)
	for i := range 3 {
		mustAppend(t, s, "g", int64(i), ev("A", i))
	}
	for _, ch := range []<-chan struct{}{c, c2} {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatal("no notification after an append")
		}
	}
	cancel()
	select {
	case _, ok := <-c:
		for ok {
			_, ok = <-c
		}
	case <-time.After(10 * time.Second):
		t.Fatal("channel not closed after ctx ended")
	}
}

func testVerify(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	for i := range 4 {
		mustAppend(t, s, "g", int64(2*i), ev("A", i), ev("B", map[string]any{"i": i, "s": "é\u2028<"}))
	}
	if err := s.Verify(ctx, "g", nil); err != nil {
		t.Errorf("Verify: %v", err)
	}
	if err := s.Verify(ctx, "unknown", nil); err != nil {
		t.Errorf("Verify of an unknown stream: %v", err)
	}
	// A format-2 stream: hashed with its key, checked with it, and not
	// with another key or none.
	key := events.CommitKeyFrom([32]byte{1, 2, 3})
	for i := range 3 {
		out := mustBatch(t, s, []events.Append{{Stream: "k", Expected: int64(2 * i), Key: &key,
			Events: []events.NewEvent{ev("A", i), ev("B", map[string]any{"card": i, "s": "é\u2028<"})}}}, nil)
		if out[0].Err != nil {
			t.Fatalf("append to a keyed stream: %v", out[0].Err)
		}
		for _, e := range out[0].Events {
			if h, err := events.HashEvent(e.PrevHash, &e, &key); err != nil || !bytes.Equal(h, e.Hash) {
				t.Errorf("keyed v%d: hash %x, HashEvent %x (%v)", e.Version, e.Hash, h, err)
			}
			if h, _ := events.HashEvent(e.PrevHash, &e, nil); bytes.Equal(h, e.Hash) {
				t.Errorf("keyed v%d: hashed in format 1", e.Version)
			}
		}
	}
	if err := s.Verify(ctx, "k", &key); err != nil {
		t.Errorf("Verify of a keyed stream: %v", err)
	}
	other := events.CommitKeyFrom([32]byte{1, 2, 4})
	var ce *events.ChainError
	for name, k := range map[string]*events.CommitKey{"no key": nil, "another key": &other} {
		if err := s.Verify(ctx, "k", k); !errors.As(err, &ce) || ce.Version != 1 {
			t.Errorf("Verify of a keyed stream with %s: %v, want a chain error at version 1", name, err)
		}
	}
}

func testReadAllLimit(t *testing.T, s events.Store) {
	for i := range 10 {
		mustAppend(t, s, fmt.Sprint("s", i%3), int64(i/3), ev("A", i))
	}
	var all []events.Event
	eventually(t, "10 events", func() bool { all = readAll(t, s, 0); return len(all) == 10 })
	got, err := s.ReadAll(ctxT(t), all[3].Position, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[0].Position != all[4].Position || got[3].Position != all[7].Position {
		t.Errorf("ReadAll(after %d, 4) = %d events", all[3].Position, len(got))
	}
	if got, _ := s.ReadAll(ctxT(t), all[9].Position, 4); len(got) != 0 {
		t.Errorf("ReadAll after the last event: %d events", len(got))
	}
}
