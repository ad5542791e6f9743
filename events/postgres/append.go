package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"pbem/events"
)

// appendKnownSQL writes the events of appends whose heads the Store knows
// (see heads), hashes chained in Go: $1..$12 hold one array element per
// event (stream, version, position offset, type, data, actor, request id,
// idempotency key, append key or NULL, recorded time, previous hash,
// hash), and $13 whether it is its append's first. First events go in
// first; the others only if it
// did, so that an append that loses (its version or append key taken)
// writes none of its events. It returns the stream, version and position
// of every event written.
const appendKnownSQL = `WITH u AS (
	SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
		$8::text[], $9::text[], $10::timestamptz[], $11::bytea[], $12::bytea[], $13::bool[])
		AS u(stream, version, off, type, data, actor, req, key, akey, at, prev, hash, first)
), first AS (
	INSERT INTO events (position, stream, version, type, data, actor, request_id, idempotency_key, append_key,
		recorded_at, prev_hash, hash)
	SELECT (SELECT events_position_base()) + u.off, u.stream, u.version, u.type, u.data::json,
		u.actor, u.req, u.key, u.akey, u.at, u.prev, u.hash
	FROM u WHERE u.first
	ON CONFLICT DO NOTHING
	RETURNING stream, version, position
), rest AS (
	INSERT INTO events (position, stream, version, type, data, actor, request_id, idempotency_key, append_key,
		recorded_at, prev_hash, hash)
	SELECT (SELECT events_position_base()) + u.off, u.stream, u.version, u.type, u.data::json,
		u.actor, u.req, u.key, u.akey, u.at, u.prev, u.hash
	FROM u WHERE NOT u.first AND u.stream IN (SELECT stream FROM first)
	ON CONFLICT DO NOTHING
	RETURNING stream, version, position
) SELECT * FROM first UNION ALL SELECT * FROM rest`

// appendLookupSQL writes one append to a stream whose head the Store does
// not remember, with the events_append_at function (migration 0004), which
// looks the head up and chains the hashes in SQL: $1 stream, $2 expected
// version, $3 position offset, $4..$9 one array element per event (type,
// data, actor, request id, idempotency key, canonical bytes), $10 the
// append key or NULL, $11 recorded time. No row: the append lost.
const appendLookupSQL = `SELECT o_position, o_prev_hash, o_hash
	FROM events_append_at($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`

// Append implements events.Store.Append, as a batch of one (see
// AppendBatch). The hooks receive an events.Tx implementing PgxTxer and
// Deferrer. Errors: *events.Error with CodeInvalid (nothing is sent to the
// database) or CodeConflict (a lost race included), a hook's error
// unchanged, or a wrapped database error.
func (s *Store) Append(ctx context.Context, stream string, expected int64, evs []events.NewEvent, hooks ...events.AppendHook) ([]events.Event, error) {
	var hook events.BatchHook
	if len(hooks) > 0 {
		hook = func(ctx context.Context, tx events.Tx, out []events.Appended) error {
			if !out[0].Wrote() {
				return nil
			}
			for _, h := range hooks {
				if err := h(ctx, tx, out[0].Events); err != nil {
					return err
				}
			}
			return nil
		}
	}
	out, err := s.AppendBatch(ctx, []events.Append{{Stream: stream, Expected: expected, Events: evs}}, hook)
	if err != nil {
		return nil, err
	}
	return out[0].Events, out[0].Err
}

// AppendBatch implements events.Store.AppendBatch. Without a hook the batch
// is one round trip (its statements share the implicit transaction of one
// pipeline); with a hook, two: BEGIN with the inserts, then the statements
// the hook deferred (see Deferrer) with the COMMIT. The hook receives an
// events.Tx implementing PgxTxer and Deferrer.
func (s *Store) AppendBatch(ctx context.Context, appends []events.Append, hook events.BatchHook) ([]events.Appended, error) {
	if err := events.CheckBatch(appends); err != nil {
		return nil, err
	}
	w, out, err := planBatch(appends, &s.heads)
	if err != nil {
		return nil, err
	}
	if w.empty() && hook == nil {
		// Nothing to write: every append had bad input or expects a version
		// its stream is known to be past (a replay or a conflict).
		if _, err := w.settle(ctx, s.pool, out); err != nil {
			return nil, err
		}
		s.heads.note(appends, out)
		return out, nil
	}
	if err := s.checkClock(ctx); err != nil {
		return nil, err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("events/postgres: append: %w", err)
	}
	// A connection left inside a transaction is closed by the pool, not reused.
	defer conn.Release()
	b := &pgx.Batch{}
	if hook != nil {
		b.BeginTx(pgx.TxOptions{})
	}
	w.queue(b)
	br := conn.SendBatch(ctx, b)
	var tx pgx.Tx
	committed := hook == nil
	if hook != nil {
		tx = br.Tx()
		defer func() {
			if !committed {
				_ = tx.Rollback(context.Background())
			}
		}()
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return nil, fmt.Errorf("events/postgres: begin: %w", err)
		}
	}
	err = w.read(br)
	if cerr := br.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("events/postgres: append: %w", cerr)
	}
	if err != nil {
		return nil, err
	}
	var q querier = conn
	if tx != nil {
		q = tx
	}
	wrote, err := w.settle(ctx, q, out)
	if err != nil {
		return nil, err
	}
	if hook != nil {
		h := &hookTx{tx: tx}
		if err := hook(ctx, h, events.CopyAppended(out)); err != nil {
			return nil, err
		}
		if err := commitDeferred(ctx, tx, &h.deferred); err != nil {
			return nil, err
		}
		committed = true
	}
	s.heads.note(appends, out)
	if wrote {
		s.lis.waiters.wake()
		s.notifier.kick()
	}
	return out, nil
}

// commitDeferred sends the deferred statements and the COMMIT in one round
// trip. A failing statement skips the COMMIT: the caller rolls back.
func commitDeferred(ctx context.Context, tx pgx.Tx, d *pgx.Batch) error {
	n := d.Len()
	d.Queue("commit")
	br := tx.SendBatch(ctx, d)
	defer br.Close() //nolint:errcheck // the results are read below
	for i := range n {
		if _, err := br.Exec(); err != nil {
			return fmt.Errorf("events/postgres: hook statement %d of %d: %w", i+1, n, err)
		}
	}
	tag, err := br.Exec()
	if err != nil {
		return fmt.Errorf("events/postgres: commit: %w", err)
	}
	if err := br.Close(); err != nil {
		return fmt.Errorf("events/postgres: commit: %w", err)
	}
	if tag.String() != "COMMIT" {
		// An earlier statement failed inside the transaction (a hook ignored
		// its error): PostgreSQL rolled back.
		return fmt.Errorf("events/postgres: commit: %w", pgx.ErrTxCommitRollback)
	}
	return nil
}

// querier is what settling a batch needs of a connection or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// replay returns the events of the append of stream that holds idempotency
// key, or nil when no append holds it.
func replay(ctx context.Context, q querier, stream, key string) ([]events.Event, error) {
	var first int64
	err := q.QueryRow(ctx, `SELECT position FROM events WHERE stream = $1 AND append_key = $2`, stream, key).Scan(&first)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("events/postgres: look up idempotency key: %w", err)
	}
	// The events of one append share their transaction's positions.
	rows, err := q.Query(ctx, selectEvents+` WHERE stream = $1 AND position >= $2 AND position < $3 ORDER BY position`,
		stream, first, first-first%positionsPerTx+positionsPerTx)
	if err != nil {
		return nil, fmt.Errorf("events/postgres: read idempotent append: %w", err)
	}
	// One transaction holds at most one append of a stream (a batch names
	// each stream once), so the range holds exactly that append's events.
	return scanEvents(rows)
}
