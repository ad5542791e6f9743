package postgres

import (
	"context"
	"fmt"
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
	ones     []int            // appends of one event, written by appendOnesSQL
	many     []int            // appends of several events, one appendManySQL each
}

// planBatch prepares every append. An append with bad input gets its error
// in out and is left out of the batch; a batch with more events than a
// transaction has positions is refused as a whole.
func planBatch(appends []events.Append) (*batchWrite, []events.Appended, error) {
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
		if len(p) == 1 {
			w.ones = append(w.ones, i)
		} else {
			w.many = append(w.many, i)
		}
	}
	if total > positionsPerTx {
		return nil, nil, events.Errorf(events.CodeInvalid, "a batch may write at most %d events, not %d", positionsPerTx, total)
	}
	return w, out, nil
}

// empty reports whether no append is left to write.
func (w *batchWrite) empty() bool { return len(w.ones) == 0 && len(w.many) == 0 }

// appendKey is the append key column of an append's first event: its
// idempotency key, or NULL.
func appendKey(e *events.Event) *string {
	if k := e.Meta.IdempotencyKey; k != "" {
		return &k
	}
	return nil
}

// queue adds the batch's statements to b: one appendOnesSQL for all the
// single-event appends, then one appendManySQL per other append.
func (w *batchWrite) queue(b *pgx.Batch) {
	if n := len(w.ones); n > 0 {
		streams, types, data, actors, reqs, keys := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		expected, offs := make([]int64, n), make([]int32, n)
		akeys, at, canon := make([]*string, n), make([]time.Time, n), make([][]byte, n)
		for j, i := range w.ones {
			e := &w.prepared[i][0]
			streams[j], expected[j], offs[j] = e.Stream, w.appends[i].Expected, int32(w.offsets[i])
			types[j], data[j], actors[j], reqs[j], keys[j] = e.Type, string(e.Data), e.Meta.Actor, e.Meta.RequestID, e.Meta.IdempotencyKey
			akeys[j], at[j], canon[j] = appendKey(e), e.RecordedAt, events.CanonicalPrepared(e)
		}
		b.Queue(appendOnesSQL, streams, expected, offs, types, data, actors, reqs, keys, akeys, at, canon)
	}
	for _, i := range w.many {
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
}

// read reads the results of the statements queue added, in order, filling
// in the positions and hashes of the events the database took.
func (w *batchWrite) read(br pgx.BatchResults) error {
	if len(w.ones) > 0 {
		byStream := make(map[string]int, len(w.ones))
		for _, i := range w.ones {
			byStream[w.appends[i].Stream] = i
		}
		rows, err := br.Query()
		if err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
		for rows.Next() {
			var stream string
			var pos int64
			var prev, hash []byte
			if err := rows.Scan(&stream, &pos, &prev, &hash); err != nil {
				rows.Close()
				return fmt.Errorf("events/postgres: append: %w", err)
			}
			i, ok := byStream[stream]
			if !ok || w.inserted[i] {
				rows.Close()
				return fmt.Errorf("events/postgres: append returned an unexpected row for stream %q", stream)
			}
			e := &w.prepared[i][0]
			e.Position, e.PrevHash, e.Hash = pos, prev, hash
			w.inserted[i] = true
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
	}
	for _, i := range w.many {
		rows, err := br.Query()
		if err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
		p, n := w.prepared[i], 0
		for rows.Next() {
			if n >= len(p) {
				rows.Close()
				return fmt.Errorf("events/postgres: append returned more than %d rows", len(p))
			}
			if err := rows.Scan(&p[n].Position, &p[n].PrevHash, &p[n].Hash); err != nil {
				rows.Close()
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
	}
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
