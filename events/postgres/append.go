package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"pbem/events"
)

// appendSQL writes one append in one statement. $1 stream, $2 expected
// version, $3..$8 one array element per event (type, data, actor, request
// id, idempotency key, canonical bytes), $9 the append's idempotency key or
// NULL, $10 recorded time.
//
// prev is the hash of the expected version (or 32 zero bytes for a new
// stream); when the stream is not at least at the expected version it is
// empty and nothing is inserted. chain computes each hash as
// sha256(previous hash || canonical bytes). An insert at a version that
// exists violates UNIQUE(stream, version). The notification is queued in the
// same transaction, so listeners hear of it only once it commits.
const appendSQL = `
WITH RECURSIVE
input AS (
	SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bytea[])
		WITH ORDINALITY AS t(type, data, actor, request_id, idempotency_key, canon, n)
),
prev AS (
	SELECT hash FROM events WHERE stream = $1 AND version = $2
	UNION ALL
	SELECT decode(repeat('00', 32), 'hex') WHERE $2::bigint = 0
),
chain (n, prev_hash, hash) AS (
	SELECT 0::bigint, NULL::bytea, hash FROM prev
	UNION ALL
	SELECT c.n + 1, c.hash, sha256(c.hash || i.canon) FROM chain c JOIN input i ON i.n = c.n + 1
),
ins AS (
	INSERT INTO events (position, stream, version, type, data, actor, request_id, idempotency_key,
		append_key, recorded_at, prev_hash, hash)
	SELECT pg_current_xact_id()::text::bigint * 10000 + i.n - 1, $1, $2 + i.n, i.type, i.data::json,
		i.actor, i.request_id, i.idempotency_key, CASE WHEN i.n = 1 THEN $9::text END, $10, c.prev_hash, c.hash
	FROM chain c JOIN input i ON i.n = c.n
	RETURNING position, version, prev_hash, hash
),
notified AS (
	SELECT pg_notify('` + channel + `', '') FROM (SELECT 1 FROM ins LIMIT 1) AS one
)
SELECT position, version, prev_hash, hash FROM ins WHERE (SELECT count(*) FROM notified) >= 0`

// Append implements events.Store.Append. The hooks receive an events.Tx
// implementing PgxTxer (see TxOf). Errors: *events.Error with CodeInvalid
// (nothing is sent to the database) or CodeConflict (a lost race included),
// a hook's error unchanged, or a wrapped database error.
func (s *Store) Append(ctx context.Context, stream string, expected int64, evs []events.NewEvent, hooks ...events.AppendHook) ([]events.Event, error) {
	prepared, err := events.Prepare(stream, expected, evs, events.RecordedNow())
	if err != nil {
		return nil, err
	}
	args, err := appendArgs(stream, expected, prepared)
	if err != nil {
		return nil, err
	}
	if len(hooks) == 0 {
		err = s.insert(ctx, s.pool, args, prepared)
	} else {
		err = s.appendInTx(ctx, args, prepared, hooks)
	}
	if err != nil {
		if errors.Is(err, errNotInserted) {
			return s.conflict(ctx, stream, expected, evs[0].Meta.IdempotencyKey)
		}
		return nil, err
	}
	s.lis.waiters.wake()
	return prepared, nil
}

// errNotInserted means the append lost to the stream's current state: its
// expected version is not the stream's (a race lost included), or its
// idempotency key is taken.
var errNotInserted = errors.New("not inserted")

func (s *Store) appendInTx(ctx context.Context, args []any, prepared []events.Event, hooks []events.AppendHook) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("events/postgres: begin: %w", err)
	}
	defer tx.Rollback(context.Background()) //nolint:errcheck // a no-op after Commit
	if err := s.insert(ctx, tx, args, prepared); err != nil {
		return err
	}
	for _, h := range hooks {
		if err := h(ctx, hookTx{tx}, prepared); err != nil {
			return err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("events/postgres: commit: %w", err)
	}
	return nil
}

// querier is what insert needs of a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// insert runs appendSQL and fills in the positions and hashes of prepared.
func (s *Store) insert(ctx context.Context, q querier, args []any, prepared []events.Event) error {
	rows, err := q.Query(ctx, appendSQL, args...)
	if err != nil {
		return mapInsertError(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var pos, version int64
		var prev, hash []byte
		if err := rows.Scan(&pos, &version, &prev, &hash); err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
		i := version - prepared[0].Version
		if i < 0 || i >= int64(len(prepared)) {
			return fmt.Errorf("events/postgres: append returned version %d", version)
		}
		e := &prepared[i]
		e.Position, e.PrevHash, e.Hash = pos, prev, hash
		n++
	}
	if err := rows.Err(); err != nil {
		return mapInsertError(err)
	}
	if n == 0 {
		return errNotInserted
	}
	if n != len(prepared) {
		return fmt.Errorf("events/postgres: append wrote %d of %d events", n, len(prepared))
	}
	return nil
}

// mapInsertError turns a unique violation into errNotInserted.
func mapInsertError(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == pgerrcode.UniqueViolation {
		return errNotInserted
	}
	return fmt.Errorf("events/postgres: append: %w", err)
}

// conflict answers an append that wrote nothing: the first result of the
// append that holds its idempotency key, if any, else a conflict error.
func (s *Store) conflict(ctx context.Context, stream string, expected int64, key string) ([]events.Event, error) {
	if key != "" {
		var first int64
		err := s.pool.QueryRow(ctx, `SELECT position FROM events WHERE stream = $1 AND append_key = $2`, stream, key).Scan(&first)
		switch {
		case err == nil:
			// The events of one append share their transaction's positions.
			rows, err := s.pool.Query(ctx, selectEvents+` WHERE stream = $1 AND position >= $2 AND position < $3 ORDER BY position`,
				stream, first, first-first%positionsPerTx+positionsPerTx)
			if err != nil {
				return nil, fmt.Errorf("events/postgres: read idempotent append: %w", err)
			}
			return scanEvents(rows)
		case !errors.Is(err, pgx.ErrNoRows):
			return nil, fmt.Errorf("events/postgres: look up idempotency key: %w", err)
		}
	}
	return nil, events.Errorf(events.CodeConflict, "stream %q is not at version %d", stream, expected)
}

// appendArgs returns appendSQL's arguments for prepared events.
func appendArgs(stream string, expected int64, prepared []events.Event) ([]any, error) {
	n := len(prepared)
	types, data, actors, reqs, keys := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	canon := make([][]byte, n)
	for i := range prepared {
		e := &prepared[i]
		c, err := events.Canonical(e)
		if err != nil {
			return nil, err
		}
		types[i], data[i], canon[i] = e.Type, string(e.Data), c
		actors[i], reqs[i], keys[i] = e.Meta.Actor, e.Meta.RequestID, e.Meta.IdempotencyKey
	}
	var appendKey *string
	if k := prepared[0].Meta.IdempotencyKey; k != "" {
		appendKey = &k
	}
	return []any{stream, expected, types, data, actors, reqs, keys, canon, appendKey, prepared[0].RecordedAt}, nil
}
