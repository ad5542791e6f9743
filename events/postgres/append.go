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

// appendSQL writes one append with the events_append function of migration
// 0001: $1 stream, $2 expected version, $3..$8 one array element per event
// (type, data, actor, request id, idempotency key, canonical bytes), $9 the
// append's idempotency key or NULL, $10 recorded time. It returns no row when
// the stream is not at the expected version; a version or key already taken
// raises unique_violation.
const appendSQL = `SELECT o_position, o_prev_hash, o_hash
	FROM events_append($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`

// appendOneSQL is appendSQL for an append of one event (most moves), as one
// plain statement: the same rows, hashes and errors, without the function
// call (PL/pgSQL's per-call cost made BEGIN + append + COMMIT about 25%
// slower in pgbench). Arguments as appendSQL, each a single value. The hash
// of the expected version is looked up by the unique index; when the stream
// is not at that version no row is inserted (and none returned).
const appendOneSQL = `INSERT INTO events (position, stream, version, type, data, actor, request_id,
		idempotency_key, append_key, recorded_at, prev_hash, hash)
	SELECT pg_current_xact_id()::text::bigint * 10000, $1, $2 + 1, $3, $4, $5, $6, $7, $9, $10, p.h, sha256(p.h || $8)
	FROM (SELECT COALESCE((SELECT e.hash FROM events e WHERE e.stream = $1 AND e.version = $2),
		CASE WHEN $2 = 0 THEN '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea END) AS h) p
	WHERE p.h IS NOT NULL
	RETURNING position, prev_hash, hash`

// Append implements events.Store.Append. The hooks receive an events.Tx
// implementing PgxTxer (see TxOf). Errors: *events.Error with CodeInvalid
// (nothing is sent to the database) or CodeConflict (a lost race included),
// a hook's error unchanged, or a wrapped database error.
func (s *Store) Append(ctx context.Context, stream string, expected int64, evs []events.NewEvent, hooks ...events.AppendHook) ([]events.Event, error) {
	prepared, err := events.Prepare(stream, expected, evs, events.RecordedNow())
	if err != nil {
		return nil, err
	}
	if err := s.checkClock(ctx); err != nil {
		return nil, err
	}
	sql, args := appendArgs(stream, expected, prepared)
	if len(hooks) == 0 {
		err = s.insert(ctx, s.pool, sql, args, prepared)
	} else {
		err = s.appendInTx(ctx, sql, args, prepared, hooks)
	}
	if err != nil {
		if errors.Is(err, errNotInserted) {
			return s.conflict(ctx, stream, expected, evs[0].Meta.IdempotencyKey)
		}
		return nil, err
	}
	s.lis.waiters.wake()
	s.notifier.kick()
	return prepared, nil
}

// errNotInserted means the append lost to the stream's current state: its
// expected version is not the stream's (a race lost included), or its
// idempotency key is taken.
var errNotInserted = errors.New("not inserted")

// appendInTx runs the append and the hooks in one transaction, in two round
// trips: BEGIN with the append, then the statements the hooks deferred (see
// Deferrer) with the COMMIT. Statements a hook runs itself add theirs.
func (s *Store) appendInTx(ctx context.Context, sql string, args []any, prepared []events.Event, hooks []events.AppendHook) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("events/postgres: begin: %w", err)
	}
	// A connection left inside a transaction is closed by the pool, not reused.
	defer conn.Release()
	b := &pgx.Batch{}
	b.BeginTx(pgx.TxOptions{})
	b.Queue(sql, args...)
	br := conn.SendBatch(ctx, b)
	tx := br.Tx()
	committed := false
	defer func() {
		if !committed {
			_ = tx.Rollback(context.Background())
		}
	}()
	if _, err := br.Exec(); err != nil {
		_ = br.Close()
		return fmt.Errorf("events/postgres: begin: %w", err)
	}
	rows, err := br.Query()
	if err == nil {
		err = scanAppend(rows, prepared)
	} else {
		err = mapInsertError(err)
	}
	if cerr := br.Close(); err == nil && cerr != nil {
		err = mapInsertError(cerr)
	}
	if err != nil {
		return err
	}
	h := &hookTx{tx: tx}
	for _, hook := range hooks {
		if err := hook(ctx, h, prepared); err != nil {
			return err
		}
	}
	if err := commitDeferred(ctx, tx, &h.deferred); err != nil {
		return err
	}
	committed = true
	return nil
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

// querier is what insert needs of a pool or a transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// insert runs an append statement (see appendArgs) and fills in the
// positions and hashes of prepared.
func (s *Store) insert(ctx context.Context, q querier, sql string, args []any, prepared []events.Event) error {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return mapInsertError(err)
	}
	return scanAppend(rows, prepared)
}

// scanAppend reads the append statement's rows into the positions and hashes of
// prepared, and closes rows.
func scanAppend(rows pgx.Rows, prepared []events.Event) error {
	defer rows.Close()
	n := 0
	for rows.Next() {
		if n >= len(prepared) {
			return fmt.Errorf("events/postgres: append returned more than %d rows", len(prepared))
		}
		e := &prepared[n]
		if err := rows.Scan(&e.Position, &e.PrevHash, &e.Hash); err != nil {
			return fmt.Errorf("events/postgres: append: %w", err)
		}
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

// appendArgs returns the statement (appendOneSQL or appendSQL) and its
// arguments for events returned by events.Prepare (whose data is canonical
// already).
func appendArgs(stream string, expected int64, prepared []events.Event) (string, []any) {
	var appendKey *string
	if k := prepared[0].Meta.IdempotencyKey; k != "" {
		appendKey = &k
	}
	if len(prepared) == 1 {
		e := &prepared[0]
		return appendOneSQL, []any{stream, expected, e.Type, string(e.Data), e.Meta.Actor, e.Meta.RequestID,
			e.Meta.IdempotencyKey, events.CanonicalPrepared(e), appendKey, e.RecordedAt}
	}
	n := len(prepared)
	types, data, actors, reqs, keys := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	canon := make([][]byte, n)
	for i := range prepared {
		e := &prepared[i]
		types[i], data[i], canon[i] = e.Type, string(e.Data), events.CanonicalPrepared(e)
		actors[i], reqs[i], keys[i] = e.Meta.Actor, e.Meta.RequestID, e.Meta.IdempotencyKey
	}
	return appendSQL, []any{stream, expected, types, data, actors, reqs, keys, canon, appendKey, prepared[0].RecordedAt}
}
