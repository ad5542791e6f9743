package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events"
)

// batchWrite is one AppendBatch: its appends prepared (hashes and positions
// to come from the database), the statements that write them, and which of
// them the database took.
type batchWrite struct {
	appends  []events.Append
	prepared [][]events.Event // by append; nil when its input was bad
	offsets  []int            // by append: its first position's offset in the transaction
	inserted []bool           // by append
	// steps are the statements, in stream order (see stepKind).
	steps []step
}

// stepKind says how a step's appends are written.
type stepKind int

const (
	// stepKnown: appends whose expected version is the stream's head as
	// this Store remembers it (or a new stream's): hashes chained in Go,
	// the events of a run of such appends inserted by one appendKnownSQL.
	stepKnown stepKind = iota
	// stepLookup: one append to a stream whose head the Store does not
	// know, by appendLookupSQL, which looks the head up.
	stepLookup
)

// step is one statement of a batch: how it writes and the appends it
// writes (indexes into batchWrite.appends).
type step struct {
	kind    stepKind
	appends []int
}

// planBatch prepares every append. An append with bad input gets its error
// in out and is left out of the batch; a batch with more events than a
// transaction has positions is refused as a whole.
func planBatch(appends []events.Append, known *heads) (*batchWrite, []events.Appended, error) {
	n := len(appends)
	w := &batchWrite{appends: appends, prepared: make([][]events.Event, n), offsets: make([]int, n), inserted: make([]bool, n)}
	out := make([]events.Appended, n)
	now := events.RecordedNow()
	total := 0
	for i, a := range appends {
		p, err := events.Prepare(a.Stream, a.Expected, a.Events, now)
		if err != nil {
			out[i].Err = err
			continue
		}
		w.prepared[i], w.offsets[i] = p, total
		total += len(p)
	}
	// Every batch writes its streams in one order (the stream ids'), so
	// two batches that share streams (two serve processes, or retries)
	// wait for each other instead of deadlocking.
	order := make([]int, 0, n)
	for i := range appends {
		if w.prepared[i] != nil {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(appends[a].Stream, appends[b].Stream) })
	for _, i := range order {
		kind := stepLookup
		switch hd, ok := known.get(appends[i].Stream, appends[i].Expected); {
		case ok && hd.version > appends[i].Expected:
			continue // stale: not sent, settled as a replay or a conflict
		case ok && hd.version == appends[i].Expected:
			kind = stepKnown
			chain(w.prepared[i], hd.hash)
		}
		if k := len(w.steps) - 1; kind == stepKnown && k >= 0 && w.steps[k].kind == kind {
			w.steps[k].appends = append(w.steps[k].appends, i)
			continue
		}
		w.steps = append(w.steps, step{kind: kind, appends: []int{i}})
	}
	if total > positionsPerTx {
		return nil, nil, events.Errorf(events.CodeInvalid, "a batch may write at most %d events, not %d", positionsPerTx, total)
	}
	return w, out, nil
}

// empty reports whether no append is left to write.
func (w *batchWrite) empty() bool { return len(w.steps) == 0 }

// appendKey is the append key column of an append's first event: its
// idempotency key, or NULL.
func appendKey(e *events.Event) *string {
	if k := e.Meta.IdempotencyKey; k != "" {
		return &k
	}
	return nil
}

// chain fills in the hashes of an append's events after prev.
func chain(evs []events.Event, prev []byte) {
	for k := range evs {
		e := &evs[k]
		e.PrevHash = prev
		e.Hash = events.ChainHash(prev, events.CanonicalPrepared(e))
		prev = e.Hash
	}
}

// queue adds the batch's statements to b, one per step.
func (w *batchWrite) queue(b *pgx.Batch) {
	for _, st := range w.steps {
		if st.kind == stepKnown {
			w.queueKnown(b, st.appends)
		} else {
			w.queueLookup(b, st.appends[0])
		}
	}
}

// eventText holds the text columns of events, one element per event.
type eventText struct {
	types, data, actors, reqs, keys []string
}

func (t *eventText) add(e *events.Event) {
	t.types, t.data, t.actors = append(t.types, e.Type), append(t.data, string(e.Data)), append(t.actors, e.Meta.Actor)
	t.reqs, t.keys = append(t.reqs, e.Meta.RequestID), append(t.keys, e.Meta.IdempotencyKey)
}

// queueKnown adds one appendKnownSQL for the events of the appends idx,
// whose hashes are chained already.
func (w *batchWrite) queueKnown(b *pgx.Batch, idx []int) {
	var t eventText
	var streams []string
	var versions []int64
	var offs []int32
	var akeys []*string
	var at []time.Time
	var prev, hash [][]byte
	var first []bool
	for _, i := range idx {
		for k := range w.prepared[i] {
			e := &w.prepared[i][k]
			var akey *string
			if k == 0 {
				akey = appendKey(e)
			}
			t.add(e)
			streams, versions, offs = append(streams, e.Stream), append(versions, e.Version), append(offs, int32(w.offsets[i]+k))
			akeys, at, first = append(akeys, akey), append(at, e.RecordedAt), append(first, k == 0)
			prev, hash = append(prev, e.PrevHash), append(hash, e.Hash)
		}
	}
	b.Queue(appendKnownSQL, streams, versions, offs, t.types, t.data, t.actors, t.reqs, t.keys, akeys, at, prev, hash, first)
}

// queueLookup adds one appendLookupSQL for append i.
func (w *batchWrite) queueLookup(b *pgx.Batch, i int) {
	p := w.prepared[i]
	var t eventText
	canon := make([][]byte, len(p))
	for k := range p {
		t.add(&p[k])
		canon[k] = events.CanonicalPrepared(&p[k])
	}
	b.Queue(appendLookupSQL, p[0].Stream, w.appends[i].Expected, int32(w.offsets[i]), t.types, t.data, t.actors, t.reqs,
		t.keys, canon, appendKey(&p[0]), p[0].RecordedAt)
}

// read reads the results of the statements queue added, in order, filling
// in the positions (and, for looked-up heads, the hashes) of the events
// the database took.
func (w *batchWrite) read(br pgx.BatchResults) error {
	for _, st := range w.steps {
		var err error
		if st.kind == stepKnown {
			err = w.readKnown(br, st.appends)
		} else {
			err = w.readLookup(br, st.appends[0])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readKnown reads the rows of one appendKnownSQL for the appends idx: each
// append wrote all its events or none.
func (w *batchWrite) readKnown(br pgx.BatchResults, idx []int) error {
	byStream := make(map[string]int, len(idx))
	for _, i := range idx {
		byStream[w.appends[i].Stream] = i
	}
	got := make(map[int]int, len(idx))
	rows, err := br.Query()
	if err != nil {
		return fmt.Errorf("events/postgres: append: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var stream string
		var version, pos int64
		if err := rows.Scan(&stream, &version, &pos); err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
		i, ok := byStream[stream]
		k := version - w.appends[i].Expected - 1
		if !ok || k < 0 || k >= int64(len(w.prepared[i])) {
			return fmt.Errorf("events/postgres: append returned an unexpected row for stream %q version %d", stream, version)
		}
		w.prepared[i][k].Position = pos
		got[i]++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("events/postgres: append: %w", err)
	}
	for i, n := range got {
		if n != len(w.prepared[i]) {
			return fmt.Errorf("events/postgres: append to %q wrote %d of %d events", w.appends[i].Stream, n, len(w.prepared[i]))
		}
		w.inserted[i] = true
	}
	return nil
}

// readLookup reads the rows of append i's appendLookupSQL.
func (w *batchWrite) readLookup(br pgx.BatchResults, i int) error {
	rows, err := br.Query()
	if err != nil {
		return fmt.Errorf("events/postgres: append: %w", err)
	}
	defer rows.Close()
	p, n := w.prepared[i], 0
	for rows.Next() {
		if n >= len(p) {
			return fmt.Errorf("events/postgres: append returned more than %d rows", len(p))
		}
		if err := rows.Scan(&p[n].Position, &p[n].PrevHash, &p[n].Hash); err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("events/postgres: append: %w", err)
	}
	if n != 0 && n != len(p) {
		return fmt.Errorf("events/postgres: append wrote %d of %d events", n, len(p))
	}
	w.inserted[i] = n > 0
	return nil
}

// settle fills in out for the appends that were sent: their events when
// written, the first append's events when their idempotency key was taken
// (Replayed), else a conflict. It reports whether anything was written.
func (w *batchWrite) settle(ctx context.Context, q querier, out []events.Appended) (bool, error) {
	wrote := false
	for i, a := range w.appends {
		switch {
		case w.prepared[i] == nil:
			continue // bad input: out[i].Err is set
		case w.inserted[i]:
			out[i].Events = w.prepared[i]
			wrote = true
			continue
		}
		if key := a.Events[0].Meta.IdempotencyKey; key != "" {
			evs, err := replay(ctx, q, a.Stream, key)
			if err != nil {
				return false, err
			}
			if len(evs) > 0 {
				out[i] = events.Appended{Events: evs, Replayed: true}
				continue
			}
		}
		out[i].Err = events.Errorf(events.CodeConflict, "stream %q is not at version %d", a.Stream, a.Expected)
	}
	return wrote, nil
}
