package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"pbem/events"
)

// insertRows is the most events one insert statement writes. A statement
// writes a power of two of rows (1, 2, 4 … insertRows): a batch's events go
// in as few such statements as add up to their number (13 = 8 + 4 + 1), all
// sent in one round trip. Each connection then prepares and plans at most
// six insert statements: one statement a row count cost PostgreSQL a plan
// per execution for as long as each connection had run each count fewer
// than six times (plan_cache_mode auto), about 11 µs of PostgreSQL CPU a
// move in a 10-second load test.
const insertRows = 32

// insertColumns are the columns insertSQL writes after the position, one
// parameter each per row, in the order queue gives them.
const insertColumns = `stream, version, type, data, actor, request_id, idempotency_key, append_key, recorded_at, hash`

// insertParams is the number of parameters a row of insertSQL takes.
const insertParams = 10

// insertSQLs holds insertSQL(n) for the powers of two n up to insertRows.
var insertSQLs = func() map[int]string {
	out := map[int]string{}
	for n := 1; n <= insertRows; n *= 2 {
		var b strings.Builder
		b.WriteString("INSERT INTO events (position, " + insertColumns + ") VALUES ")
		for r := range n {
			if r > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(events_position_base($1) + $%d", 2+r*(insertParams+1))
			for c := range insertParams {
				fmt.Fprintf(&b, ", $%d", 3+r*(insertParams+1)+c)
			}
			b.WriteString(")")
		}
		b.WriteString(" RETURNING position")
		out[n] = b.String()
	}
	return out
}()

// insertSQL returns the statement that writes n events (a power of two up
// to insertRows: see rowsFor), hashes chained in Go: a plain INSERT …
// VALUES whose $1 is the database's xid shift and each row's parameters are
// the event's offset in the transaction's positions (the position is
// events_position_base($1), which PostgreSQL inlines, plus the offset: see
// migration 0090) and its insertColumns. A version or append key already
// taken fails the statement with a unique violation, and AppendBatch sends
// the batch again without the appends that lost (see dropLosers). It
// returns every event's position, whose remainder modulo 10000 is its
// offset.
//
// One row per event rather than arrays (unnest) costs PostgreSQL less for
// the usual append of one to a few events: about 25 µs of server CPU an
// event at 32 writers (see "Appends" in docs/SCALING.md).
func insertSQL(n int) string { return insertSQLs[n] }

// rowsFor returns the rows of the next insert statement when left events
// are still to be queued: the greatest power of two not above left, at most
// insertRows.
func rowsFor(left int) int {
	return 1 << (bits.Len(uint(min(left, insertRows))) - 1)
}

// Append implements events.Store.Append, as a batch of one (see
// AppendBatch). Errors: *events.Error with CodeInvalid (nothing is sent to the
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

// AppendBatch implements events.Store.AppendBatch: the one way this store
// appends. Each append is prepared and its hashes chained in Go from its
// stream's head (remembered, or read when this Store did not write it),
// then the events of the whole batch are inserted (see insertSQL).
// Without a hook the batch is one round trip (the statements' implicit
// transaction); with a hook, two: BEGIN with the insert, then the
// statements the hook deferred (events.Tx) with the COMMIT. An append that
// loses a race makes the insert fail, nothing of the batch is written, and
// the batch is written again without it.
func (s *Store) AppendBatch(ctx context.Context, appends []events.Append, hook events.BatchHook) ([]events.Appended, error) {
	if err := events.CheckBatch(appends); err != nil {
		return nil, err
	}
	w, out, err := planBatch(appends, &s.heads, s.recordedNow())
	if err != nil {
		return nil, err
	}
	if err := w.lookUp(ctx, s.pool); err != nil {
		return nil, err
	}
	var shift int64
	if !w.empty() || hook != nil {
		if shift, err = s.checkClock(ctx); err != nil {
			return nil, err
		}
	}
	// Each lost race removes at least one append, so this ends.
	for {
		err := s.write(ctx, w, out, hook, shift)
		var lost *lostRace
		if !errors.As(err, &lost) {
			if err != nil {
				return nil, err
			}
			break
		}
		n, lerr := w.dropLosers(ctx, s.pool)
		if lerr != nil {
			return nil, lerr
		}
		if n == 0 {
			return nil, fmt.Errorf("events/postgres: append: %w", lost.err)
		}
	}
	s.heads.note(appends, out)
	if slices.ContainsFunc(out, func(a events.Appended) bool { return a.Wrote() }) {
		s.notifier.kick()
	}
	return out, nil
}

// write sends the appends of w and runs the hook, in one transaction, and
// settles out; shift is the database's xid shift (see checkClock). Nothing
// is committed when it returns an error.
//
// The transaction is an explicit one (BEGIN, then COMMIT after the hook)
// when there is a hook or the inserts take more than one statement. A
// single statement is a transaction of its own; several statements sent
// in one pipeline form one implicit transaction on PostgreSQL, but not on
// a Citus coordinator, which commits each statement's rows on their
// worker: a batch whose second statement lost a race kept the first
// one's rows (TestBatchOverSeveralStatementsIsOneTransaction on Citus).
func (s *Store) write(ctx context.Context, w *batchWrite, out []events.Appended, hook events.BatchHook, shift int64) error {
	if w.empty() && hook == nil {
		// Nothing to write: every append had bad input or expects a version
		// its stream is past (a replay or a conflict).
		_, err := w.settle(ctx, s.pool, out)
		return err
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("events/postgres: append: %w", err)
	}
	// A connection left inside a transaction is closed by the pool, not reused.
	defer conn.Release()
	// The rows take one statement exactly when the first holds them all.
	n := w.sending()
	explicit := hook != nil || rowsFor(n) < n
	b := &pgx.Batch{}
	if explicit {
		b.BeginTx(pgx.TxOptions{})
	}
	statements := 0
	if !w.empty() {
		statements = w.queue(b, shift)
	}
	br := conn.SendBatch(ctx, b)
	var tx pgx.Tx
	committed := !explicit
	if explicit {
		tx = br.Tx()
		defer func() {
			if !committed {
				_ = tx.Rollback(context.Background())
			}
		}()
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return fmt.Errorf("events/postgres: begin: %w", err)
		}
	}
	if !w.empty() {
		err = w.read(br, statements)
	}
	if cerr := br.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("events/postgres: append: %w", cerr)
	}
	if isUniqueViolation(err) {
		return &lostRace{err}
	}
	if err != nil {
		return err
	}
	var q Querier = conn
	if tx != nil {
		q = tx
	}
	if _, err := w.settle(ctx, q, out); err != nil {
		return err
	}
	if !explicit {
		return nil
	}
	deferred := &pgx.Batch{}
	if hook != nil {
		h := &hookTx{tx: tx}
		if err := hook(ctx, h, events.CopyAppended(out)); err != nil {
			return err
		}
		deferred = &h.deferred
	}
	if err := commitDeferred(ctx, tx, deferred); err != nil {
		return err
	}
	committed = true
	return nil
}

// lostRace is write's error when the insert hit a unique constraint: an
// append of the batch lost a race (or its idempotency key is taken).
type lostRace struct{ err error }

func (l *lostRace) Error() string { return l.err.Error() }

// isUniqueViolation reports whether err is PostgreSQL's unique_violation.
func isUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == pgerrcode.UniqueViolation
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

// replay returns the events of the append of stream that holds idempotency
// key; found is false when no append holds it.
func replay(ctx context.Context, q Querier, stream, key string) (evs []events.Event, found bool, err error) {
	var first int64
	err = q.QueryRow(ctx, `SELECT position FROM events WHERE stream = $1 AND append_key = $2`, stream, key).Scan(&first)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("events/postgres: look up idempotency key: %w", err)
	}
	// The events of one append share their transaction's positions.
	rows, err := q.Query(ctx, selectEvents+` WHERE stream = $1 AND position >= $2 AND position < $3 ORDER BY position`,
		stream, first, first-first%positionsPerTx+positionsPerTx)
	if err != nil {
		return nil, false, fmt.Errorf("events/postgres: read idempotent append: %w", err)
	}
	// One transaction holds at most one append of a stream (a batch names
	// each stream once), so the range holds exactly that append's events.
	if evs, err = scanEvents(rows); err == nil {
		err = linkPrev(ctx, q, evs)
	}
	if err != nil {
		return nil, false, err
	}
	return evs, true, nil
}
