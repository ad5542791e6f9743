package eventstest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"pbem/events"
)

// racer is one writer of testBatchRace: it appends, alone and in batches,
// to the shared streams at the version it last saw, and records what won.
type racer struct {
	t       *testing.T
	ctx     context.Context
	s       events.Store
	id      int
	rng     *rand.Rand
	seen    map[string]int64          // stream -> the version this racer last saw
	won     map[string]events.Append  // stream -> this racer's last append that wrote there
	results map[string][]events.Event // idempotency key -> the events its append wrote
	claims  *claims
}

// claims maps "stream/version" to the event of the one append that won
// that version; a second winner is an error.
type claims struct {
	mu  sync.Mutex
	evs map[string]events.Event
}

func vkey(e events.Event) string { return fmt.Sprintf("%s/%d", e.Stream, e.Version) }

func (c *claims) add(t *testing.T, evs []events.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range evs {
		k := vkey(e)
		if _, dup := c.evs[k]; dup {
			t.Errorf("two appends won version %s", k)
		}
		c.evs[k] = e
	}
}

// next returns the append racer r makes to stream in round: a retry of its
// last winning append there (one time in four), or new events at the
// version it last saw, keyed uniquely.
func (r *racer) next(stream string, round int) (a events.Append, retry bool) {
	if prev, ok := r.won[stream]; ok && r.rng.IntN(4) == 0 {
		return prev, true
	}
	key := fmt.Sprintf("r%d-%d-%s", r.id, round, stream)
	evs := make([]events.NewEvent, 1+r.rng.IntN(3))
	for i := range evs {
		evs[i] = keyed("E", map[string]any{"racer": r.id, "round": round, "i": i}, key)
	}
	return events.Append{Stream: stream, Expected: r.seen[stream], Events: evs}, false
}

// settle records how append a went: written, replayed (only a retry may
// be), or lost to another writer.
func (r *racer) settle(a events.Append, retry bool, o events.Appended) {
	key := a.Events[0].Meta.IdempotencyKey
	if retry && o.Err != nil {
		r.t.Errorf("racer %d: retry of %s: %v, want a replay", r.id, key, o.Err)
		return
	}
	switch {
	case o.Err == nil && o.Replayed:
		if !retry {
			r.t.Errorf("racer %d: a new append to %s was replayed", r.id, a.Stream)
			return
		}
		if len(o.Events) != len(r.results[key]) || o.Events[0].Position != r.results[key][0].Position {
			r.t.Errorf("racer %d: retry of %s returned %v, want the first append's %v", r.id, key, o.Events, r.results[key])
		}
	case o.Err == nil:
		if retry {
			r.t.Errorf("racer %d: retry of %s wrote again", r.id, key)
		}
		if len(o.Events) != len(a.Events) || o.Events[0].Version != a.Expected+1 {
			r.t.Errorf("racer %d: append to %s at %d wrote %v", r.id, a.Stream, a.Expected, o.Events)
			return
		}
		r.claims.add(r.t, o.Events)
		r.seen[a.Stream] = o.Events[len(o.Events)-1].Version
		r.won[a.Stream] = a
		r.results[key] = o.Events
	case events.IsConflict(o.Err):
		got, err := r.s.ReadStream(r.ctx, a.Stream, 1)
		if err != nil {
			r.t.Errorf("racer %d: ReadStream(%s): %v", r.id, a.Stream, err)
			return
		}
		r.seen[a.Stream] = int64(len(got))
	default:
		r.t.Errorf("racer %d: append to %s: %v, want success or a conflict", r.id, a.Stream, o.Err)
	}
}

// run makes rounds appends or batches; streams of a batch come in random
// order, so that a store locking them as they come would deadlock.
func (r *racer) run(streams []string, rounds int) {
	for round := range rounds {
		if round%2 == 0 {
			a, retry := r.next(streams[r.rng.IntN(len(streams))], round)
			evs, err := r.s.Append(r.ctx, a.Stream, a.Expected, a.Events)
			o := events.Appended{Events: evs, Err: err}
			// Append does not say it replayed: a retry that returns
			// without error did, when the append is not new.
			o.Replayed = retry && err == nil
			r.settle(a, retry, o)
			continue
		}
		n := 2 + r.rng.IntN(len(streams)-1)
		var appends []events.Append
		var retries []bool
		for _, i := range r.rng.Perm(len(streams))[:n] {
			a, retry := r.next(streams[i], round)
			appends = append(appends, a)
			retries = append(retries, retry)
		}
		var hook events.BatchHook
		hooked := 0
		if round%4 == 1 {
			hook = func(_ context.Context, _ events.Tx, out []events.Appended) error {
				for _, o := range out {
					if o.Wrote() {
						hooked++
					}
				}
				return nil
			}
		}
		out, err := r.s.AppendBatch(r.ctx, appends, hook)
		if err != nil || len(out) != len(appends) {
			r.t.Errorf("racer %d: AppendBatch: %d results for %d appends, err %v", r.id, len(out), len(appends), err)
			continue
		}
		wrote := 0
		for i, o := range out {
			if o.Wrote() {
				wrote++
			}
			r.settle(appends[i], retries[i], o)
		}
		if hook != nil && hooked != wrote {
			r.t.Errorf("racer %d: the hook saw %d written appends, AppendBatch says %d", r.id, hooked, wrote)
		}
	}
}

// testBatchRace runs writers that use AppendBatch and Append at once on
// overlapping streams. In the end every stream's versions run 1..n without
// gaps, exactly one append won each version, the chains verify, and ReadAll
// returns every event exactly once.
func testBatchRace(t *testing.T, s events.Store) {
	ctx := ctxT(t)
	const racers, rounds = 6, 24
	streams := []string{"r0", "r1", "r2", "r3", "r4"}
	cl := &claims{evs: map[string]events.Event{}}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for id := range racers {
		r := &racer{
			t: t, ctx: ctx, s: s, id: id,
			rng:     rand.New(rand.NewPCG(uint64(id), 7)),
			seen:    map[string]int64{},
			won:     map[string]events.Append{},
			results: map[string][]events.Event{},
			claims:  cl,
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r.run(streams, rounds)
		}()
	}
	close(start)
	wg.Wait()

	stored := 0
	for _, st := range streams {
		got := mustRead(t, s, st, 1)
		for i, e := range got {
			if e.Version != int64(i+1) {
				t.Errorf("%s: event %d has version %d", st, i, e.Version)
			}
			w, ok := cl.evs[vkey(e)]
			if !ok {
				t.Errorf("%s v%d is stored but no append won it", st, e.Version)
				continue
			}
			sameEvent(t, "stored "+vkey(e), e, w)
		}
		stored += len(got)
		verify(t, s, st)
	}
	if stored != len(cl.evs) {
		t.Errorf("appends won %d versions, the streams hold %d events", len(cl.evs), stored)
	}
	if stored < len(streams) {
		t.Errorf("only %d events written: the racers made no progress", stored)
	}

	var all []events.Event
	eventually(t, "ReadAll to show every event", func() bool { all = readAll(t, s, 0); return len(all) >= stored })
	if len(all) != stored {
		t.Errorf("ReadAll returned %d events, the streams hold %d", len(all), stored)
	}
	once := map[string]bool{}
	for i, e := range all {
		if i > 0 && e.Position <= all[i-1].Position {
			t.Errorf("ReadAll out of position order: %d then %d", all[i-1].Position, e.Position)
		}
		if once[vkey(e)] {
			t.Errorf("ReadAll returned %s twice", vkey(e))
		}
		once[vkey(e)] = true
		if w, ok := cl.evs[vkey(e)]; ok {
			sameEvent(t, "ReadAll "+vkey(e), e, w)
		} else {
			t.Errorf("ReadAll returned %s, which no append won", vkey(e))
		}
	}
	t.Logf("%d racers wrote %d events to %d streams", racers, stored, len(streams))
}
