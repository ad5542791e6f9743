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

// batchWrite is one AppendBatch: its appends prepared and chained, the
// statement that writes them, and which of them the database took.
type batchWrite struct {
	appends  []events.Append
	prepared [][]events.Event // by append; nil when its input was bad
	offsets  []int            // by append: its first position's offset in the transaction
	inserted []bool           // by append
	// send are the appends to write (indexes into appends), in stream order
	// once planned; look are those whose heads must be read first.
	send, look []int
}

// planBatch prepares every append and chains the hashes of those whose
// stream head the Store remembers (or a new stream's). The others are left
// in look, for lookUp. An append with bad input gets its error in out and is
// left out; an append at a version its stream is known to be past is not
// sent (settle answers it). A batch with more events than a transaction
// has positions is refused as a whole. Every event is recorded at now.
func planBatch(appends []events.Append, known *heads, now time.Time) (*batchWrite, []events.Appended, error) {
	n := len(appends)
	w := &batchWrite{appends: appends, prepared: make([][]events.Event, n), offsets: make([]int, n), inserted: make([]bool, n)}
	out := make([]events.Appended, n)
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
	if total > positionsPerTx {
		return nil, nil, events.Errorf(events.CodeInvalid, "a batch may write at most %d events, not %d", positionsPerTx, total)
	}
	for i := range appends {
		if w.prepared[i] == nil {
			continue
		}
		switch hd, ok := known.get(appends[i].Stream, appends[i].Expected); {
		case !ok || hd.version < appends[i].Expected:
			// Not remembered, or moved on by another process since.
			w.look = append(w.look, i)
		case hd.version == appends[i].Expected:
			events.ChainPrepared(w.prepared[i], hd.hash, appends[i].Key)
			w.send = append(w.send, i)
		}
	}
	w.sortSend()
	return w, out, nil
}

// sortSend puts send in stream order: every batch writes its streams in one
// order, so two batches that share streams (two serve processes, or
// retries) wait for each other instead of deadlocking.
func (w *batchWrite) sortSend() {
	slices.SortFunc(w.send, func(a, b int) int { return strings.Compare(w.appends[a].Stream, w.appends[b].Stream) })
}

// lookUp reads the heads of the appends in look and chains their hashes.
// An append whose stream has no event at its expected version is not sent:
// it cannot be written (settle answers it as a replay or a conflict). The
// heads read are committed events, which never change, so they need not be
// read in the append's transaction: a stream that moves on meanwhile makes
// the append lose on UNIQUE (stream, version), as it would anyway.
func (w *batchWrite) lookUp(ctx context.Context, q Querier) error {
	if len(w.look) == 0 {
		return nil
	}
	heads := make([]streamVersion, len(w.look))
	for k, i := range w.look {
		heads[k] = streamVersion{w.appends[i].Stream, w.appends[i].Expected}
	}
	hashes := make(map[streamVersion][]byte, len(heads))
	if err := readHashes(ctx, q, headsSQL, heads, hashes); err != nil {
		return fmt.Errorf("events/postgres: read stream heads: %w", err)
	}
	for k, i := range w.look {
		if hash, ok := hashes[heads[k]]; ok {
			events.ChainPrepared(w.prepared[i], hash, w.appends[i].Key)
			w.send = append(w.send, i)
		}
	}
	w.look = nil
	w.sortSend()
	return nil
}

// empty reports whether no append is left to write.
func (w *batchWrite) empty() bool { return len(w.send) == 0 }

// sending is how many events the appends left to write hold.
func (w *batchWrite) sending() int {
	n := 0
	for _, i := range w.send {
		n += len(w.prepared[i])
	}
	return n
}

// appendKey is the append key column of an append's first event: its
// idempotency key, or NULL.
func appendKey(e *events.Event) *string {
	if k := e.Meta.IdempotencyKey; k != "" {
		return &k
	}
	return nil
}

// queue adds the insert statements (see insertSQL) for the events of the
// appends in send, each of rowsFor rows, and returns how many it added.
// shift is the database's xid shift.
func (w *batchWrite) queue(b *pgx.Batch, shift int64) int {
	left := w.sending() // events not queued yet
	statements := 0
	var args []any
	rows, size := 0, 0
	for _, i := range w.send {
		for k := range w.prepared[i] {
			if rows == 0 {
				size = rowsFor(left)
				args = make([]any, 1, 1+(insertParams+1)*size)
				args[0] = shift
			}
			e := &w.prepared[i][k]
			var akey *string
			if k == 0 {
				akey = appendKey(e)
			}
			args = append(args, int32(w.offsets[i]+k), e.Stream, e.Version, e.Type, []byte(e.Data),
				e.Meta.Actor, e.Meta.RequestID, e.Meta.IdempotencyKey, akey, e.RecordedAt, e.Hash)
			left--
			if rows++; rows == size {
				b.Queue(insertSQL(size), args...)
				statements++
				rows = 0
			}
		}
	}
	return statements
}

// read reads the rows of the statements queue added, the position of
// every event sent, and fills them in: the inserts wrote all of them (or
// failed).
func (w *batchWrite) read(br pgx.BatchResults, statements int) error {
	// Offsets run from 0 to the batch's event count.
	byOffset := make([]*events.Event, 0, 8)
	sent := 0
	for _, i := range w.send {
		for k := range w.prepared[i] {
			off := w.offsets[i] + k
			for len(byOffset) <= off {
				byOffset = append(byOffset, nil)
			}
			byOffset[off] = &w.prepared[i][k]
			sent++
		}
	}
	n := 0
	for range statements {
		rows, err := br.Query()
		if err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
		for rows.Next() {
			var pos int64
			if err := rows.Scan(&pos); err != nil {
				rows.Close()
				return fmt.Errorf("events/postgres: append: %w", err)
			}
			off := int(pos % positionsPerTx)
			if off >= len(byOffset) || byOffset[off] == nil {
				rows.Close()
				return fmt.Errorf("events/postgres: append returned an unexpected position %d", pos)
			}
			byOffset[off].Position = pos
			n++
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
	}
	if n != sent {
		return fmt.Errorf("events/postgres: append wrote %d of %d events", n, sent)
	}
	for _, i := range w.send {
		w.inserted[i] = true
	}
	return nil
}

// losersSQL returns which of the appends ($1 stream, $2 expected version,
// $3 append key or NULL) cannot be written: their next version or their
// append key is taken. A join on the stream, not a correlated EXISTS:
// Citus joins a distributed table only on its distribution column
// (docs/SCALING.md, "Running on Citus").
const losersSQL = `SELECT DISTINCT h.stream FROM unnest($1::text[], $2::bigint[], $3::text[]) AS h(stream, expected, akey)
	JOIN events e ON e.stream = h.stream AND (e.version = h.expected + 1 OR e.append_key = h.akey)`

// dropLosers takes the appends that lost a race (see losersSQL) out of
// send, after an insert failed on a unique constraint, and returns how
// many it took out. Zero means the violation was something else (a stream
// with a gap after its expected version). Settle answers them.
func (w *batchWrite) dropLosers(ctx context.Context, q Querier) (int, error) {
	streams, versions, keys := make([]string, len(w.send)), make([]int64, len(w.send)), make([]*string, len(w.send))
	for k, i := range w.send {
		streams[k], versions[k], keys[k] = w.appends[i].Stream, w.appends[i].Expected, appendKey(&w.prepared[i][0])
	}
	rows, err := q.Query(ctx, losersSQL, streams, versions, keys)
	if err != nil {
		return 0, fmt.Errorf("events/postgres: find lost appends: %w", err)
	}
	lost, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return 0, fmt.Errorf("events/postgres: find lost appends: %w", err)
	}
	n := len(w.send)
	w.send = slices.DeleteFunc(w.send, func(i int) bool { return slices.Contains(lost, w.appends[i].Stream) })
	return n - len(w.send), nil
}

// settle fills in out for the appends with good input: their events when
// written, the first append's events when their idempotency key was taken
// (Replayed), else a conflict. It reports whether anything was written.
func (w *batchWrite) settle(ctx context.Context, q Querier, out []events.Appended) (bool, error) {
	wrote := false
	for i, a := range w.appends {
		switch {
		case w.prepared[i] == nil:
			continue // bad input: out[i].Err is set
		case w.inserted[i]:
			out[i] = events.Appended{Events: w.prepared[i]}
			wrote = true
			continue
		}
		if key := a.Events[0].Meta.IdempotencyKey; key != "" {
			evs, found, err := replay(ctx, q, a.Stream, key)
			if err != nil {
				return false, err
			}
			if found {
				out[i] = events.Appended{Events: evs, Replayed: true}
				continue
			}
		}
		out[i].Err = events.Errorf(events.CodeConflict, "stream %q is not at version %d", a.Stream, a.Expected)
	}
	return wrote, nil
}
