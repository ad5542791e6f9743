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
	// stepOnes: a run of single-event appends of other streams, by one
	// appendOnesSQL, which looks the heads up.
	stepOnes
	// stepMany: one append of several events of another stream, by
	// appendManySQL.
	stepMany
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
		kind := stepMany
		switch hd, ok := known.get(appends[i].Stream, appends[i].Expected); {
		case ok && hd.version > appends[i].Expected:
			continue // stale: not sent, settled as a replay or a conflict
		case ok && hd.version == appends[i].Expected:
			kind = stepKnown
			chain(w.prepared[i], hd.hash)
		case len(w.prepared[i]) == 1:
			kind = stepOnes
		}
		if k := len(w.steps) - 1; kind != stepMany && k >= 0 && w.steps[k].kind == kind {
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
		switch st.kind {
		case stepKnown:
			w.queueKnown(b, st.appends)
		case stepOnes:
			w.queueOnes(b, st.appends)
		default:
			w.queueMany(b, st.appends[0])
		}
	}
}

// queueKnown adds one appendKnownSQL for the events of the appends idx,
// whose hashes are chained already.
func (w *batchWrite) queueKnown(b *pgx.Batch, idx []int) {
	n := 0
	for _, i := range idx {
		n += len(w.prepared[i])
	}
	streams, types, data, actors, reqs, keys := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	versions, offs := make([]int64, 0, n), make([]int32, 0, n)
	akeys, at, prev, hash := make([]*string, 0, n), make([]time.Time, 0, n), make([][]byte, 0, n), make([][]byte, 0, n)
	first := make([]bool, 0, n)
	for _, i := range idx {
		for k := range w.prepared[i] {
			e := &w.prepared[i][k]
			var akey *string
			if k == 0 {
				akey = appendKey(e)
			}
			streams, versions, offs = append(streams, e.Stream), append(versions, e.Version), append(offs, int32(w.offsets[i]+k))
			types, data, actors = append(types, e.Type), append(data, string(e.Data)), append(actors, e.Meta.Actor)
			reqs, keys, akeys = append(reqs, e.Meta.RequestID), append(keys, e.Meta.IdempotencyKey), append(akeys, akey)
			at, prev, hash = append(at, e.RecordedAt), append(prev, e.PrevHash), append(hash, e.Hash)
			first = append(first, k == 0)
		}
	}
	b.Queue(appendKnownSQL, streams, versions, offs, types, data, actors, reqs, keys, akeys, at, prev, hash, first)
}

// queueOnes adds one appendOnesSQL for the single-event appends idx.
func (w *batchWrite) queueOnes(b *pgx.Batch, idx []int) {
	n := len(idx)
	streams, types, data, actors, reqs, keys := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	expected, offs := make([]int64, n), make([]int32, n)
	akeys, at, canon := make([]*string, n), make([]time.Time, n), make([][]byte, n)
	for j, i := range idx {
		e := &w.prepared[i][0]
		streams[j], expected[j], offs[j] = e.Stream, w.appends[i].Expected, int32(w.offsets[i])
		types[j], data[j], actors[j], reqs[j], keys[j] = e.Type, string(e.Data), e.Meta.Actor, e.Meta.RequestID, e.Meta.IdempotencyKey
		akeys[j], at[j], canon[j] = appendKey(e), e.RecordedAt, events.CanonicalPrepared(e)
	}
	b.Queue(appendOnesSQL, streams, expected, offs, types, data, actors, reqs, keys, akeys, at, canon)
}

// queueMany adds one appendManySQL for append i.
func (w *batchWrite) queueMany(b *pgx.Batch, i int) {
	p := w.prepared[i]
	n := len(p)
	types, data, actors, reqs, keys := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	canon := make([][]byte, n)
	for k := range p {
		e := &p[k]
		types[k], data[k], canon[k] = e.Type, string(e.Data), events.CanonicalPrepared(e)
		actors[k], reqs[k], keys[k] = e.Meta.Actor, e.Meta.RequestID, e.Meta.IdempotencyKey
	}
	b.Queue(appendManySQL, p[0].Stream, w.appends[i].Expected, int32(w.offsets[i]), types, data, actors, reqs, keys,
		canon, appendKey(&p[0]), p[0].RecordedAt)
}

// read reads the results of the statements queue added, in order, filling
// in the positions and hashes of the events the database took.
func (w *batchWrite) read(br pgx.BatchResults) error {
	for _, st := range w.steps {
		var err error
		switch st.kind {
		case stepKnown:
			err = w.readKnown(br, st.appends)
		case stepOnes:
			err = w.readOnes(br, st.appends)
		default:
			err = w.readMany(br, st.appends[0])
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

// readOnes reads the rows of one appendOnesSQL for the appends idx.
func (w *batchWrite) readOnes(br pgx.BatchResults, idx []int) error {
	byStream := make(map[string]int, len(idx))
	for _, i := range idx {
		byStream[w.appends[i].Stream] = i
	}
	rows, err := br.Query()
	if err != nil {
		return fmt.Errorf("events/postgres: append: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var stream string
		var pos int64
		var prev, hash []byte
		if err := rows.Scan(&stream, &pos, &prev, &hash); err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
		i, ok := byStream[stream]
		if !ok || w.inserted[i] {
			return fmt.Errorf("events/postgres: append returned an unexpected row for stream %q", stream)
		}
		e := &w.prepared[i][0]
		e.Position, e.PrevHash, e.Hash = pos, prev, hash
		w.inserted[i] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("events/postgres: append: %w", err)
	}
	return nil
}

// readMany reads the rows of append i's appendManySQL.
func (w *batchWrite) readMany(br pgx.BatchResults, i int) error {
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
