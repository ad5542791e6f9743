// Package postgres is the events.Store on PostgreSQL (pgx/v5): the only place
// where events meet SQL. The schema is migrations/0001_events.up.sql.
//
// # Global order without skipped events
//
// Positions are handed out before commit, so a reader of the global log that
// simply asks for "position > last" can read position 12 while 11 is still
// being written, and never see 11. This store closes that gap with the
// transaction-id watermark: every event's position is derived from the id of
// the transaction that inserted it,
//
//	position = xid8 * 10000 + index of the event in its append
//
// (plus a constant shift after a restore: see "Moving a database"), and
// ReadAll returns only positions below W * 10000, where W is the oldest
// transaction id still running at the statement's snapshot (its xmin, or its
// xmax when none runs). A transaction that commits later has an id >= W,
// hence positions above everything returned so far: nothing is ever skipped.
// Transactions that pg_stat_activity shows in other databases of the server
// do not count (see readAllSQL).
//
// Why not the two other designs:
//   - A plain identity column plus "xid < xmin" filter is not enough: a
//     transaction can take its xid before another but its position after it,
//     and then a reader returns the later position and skips the earlier one
//     when it commits.
//   - An advisory lock serialising appends makes positions dense but puts every
//     commit's WAL flush inside the lock: throughput stays at one writer's rate
//     however many writers there are (BenchmarkAdvisoryLockInsert measured
//     17% of a plain INSERT's rate at 8 writers, 5% at 32), far below the
//     80%-of-plain-INSERT goal.
//
// The watermark's cost: positions are sparse (gaps of thousands), and ReadAll
// lags behind the newest events while an older transaction of this database
// runs; a transaction left open (idle in transaction) with an id holds
// readers back until it ends. Appends themselves never wait on each other
// unless they write the same stream.
//
// # Moving a database
//
// Transaction ids belong to one server's history: pg_upgrade and physical
// replicas (a standby) keep them, but a pg_dump restored into another server
// starts from that server's ids, usually far lower. So a position is
//
//	position = (xid8 + shift) * 10000 + index
//
// where shift is a per-database constant (table events_xid_shift, migration
// 0005), 0 on the server that created the database. Before its first append
// or read of the log, the store checks that no stored position is at or above
// what this server's transaction ids can produce ((xmax + shift) * 10000,
// impossible on the server that wrote it), and when there is one (a restored
// dump) it raises the shift, once, under a lock of that table so that
// several processes agree: new positions then start above every restored
// one, and the watermark, computed with the same shift, keeps its meaning.
// A restore needs no step beyond pg_restore (or psql).
//
// # Appends
//
// There is one way to append (AppendBatch; Append is a batch of one). Each
// append is checked and given its canonical bytes by events.Prepare, and its
// hashes are chained in Go (chain, the only place the chain is computed)
// from its stream's head: the version and hash this Store remembers from
// its own appends (see heads), or, when it did not write the head, the hash
// read from the events table. The events of the whole batch then go in
// plain INSERT … VALUES statements, one row an event, sent together (see
// insertSQL), whose positions come from the transaction id and the xid
// shift the Store read once (see checkClock). UNIQUE (stream, version)
// decides races: an append whose version (or idempotency key) is taken
// makes the insert fail, nothing of the batch is written, and the batch
// is sent again without the appends that lost, which are answered as
// conflicts or replays; a race costs one more round trip, the usual append
// none. Without a hook, a batch is one round trip; with one, the insert is
// sent with BEGIN, the hook runs, and the statements it deferred (see
// events.Tx) go with the COMMIT: two round trips and one commit for the
// whole batch, which is what makes group commit pay. Listeners are notified
// after the commit, at most once per 10 ms in a burst (see notifier for why).
//
// It is the only place events meet SQL; it must not import the game
// service, the read models, notify or api (cmd/pbem/layering_test.go).
package postgres

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
)

// positionsPerTx is how many positions one transaction owns: an event's
// position is (xid8+shift)*positionsPerTx + its index in the append. The SQL in
// append.go and read.go spells it out as 10000.
const positionsPerTx = 10000

// An append must fit in its transaction's positions (compile-time check).
const _ uint = positionsPerTx - events.MaxAppend

// channel is the LISTEN/NOTIFY channel appends notify.
const channel = "pbem_events"

// Store is the PostgreSQL events.Store. Create it with New; call Close when
// done with it (it does not close the pool).
type Store struct {
	pool     *pgxpool.Pool
	lis      *listener
	notifier *notifier
	clock    clockCheck
	heads    heads
	archives archiveCache
	// now, if set, dates appends instead of the wall clock (SetClock).
	now func() time.Time
}

var _ events.Store = (*Store)(nil)

// New returns a Store on pool, whose database must be migrated
// (migrations.Up).
func New(pool *pgxpool.Pool) *Store {
	self := rand.Text() // names this store's NOTIFYs, which its own listener ignores
	lis := newListener(pool.Config().ConnConfig, self)
	return &Store{pool: pool, lis: lis, notifier: newNotifier(pool, self, &lis.waiters)}
}

// SetClock makes the store record the events it appends at now() (in UTC,
// to the microsecond) instead of the wall clock. The fair-play tests date
// two games alike to compare what a seat sees of them byte for byte. Call
// it before the store's first append.
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// recordedNow is when an append that begins now is recorded.
func (s *Store) recordedNow() time.Time {
	if s.now == nil {
		return events.RecordedNow()
	}
	return s.now().UTC().Truncate(time.Microsecond)
}

// Pool returns the store's connection pool.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close stops the store's listener connection, if any, and its notifier,
// and closes every channel returned by Notify. It does not close the pool.
func (s *Store) Close() {
	s.notifier.close()
	s.lis.close()
}

// hookTx is the events.Tx this store hands to hooks: the append's
// transaction and the statements deferred to its commit.
type hookTx struct {
	tx       pgx.Tx
	deferred pgx.Batch
}

// Defer implements events.Tx.
func (h *hookTx) Defer(sql string, args ...any) { h.deferred.Queue(sql, args...) }

// waiters is the set of local Notify channels, signalled by the notifier
// after an append commits in this process and by the listener for appends
// of other processes.
type waiters struct {
	mu sync.Mutex
	m  map[chan struct{}]struct{}
}

func (w *waiters) add(c chan struct{}) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.m == nil {
		w.m = map[chan struct{}]struct{}{}
	}
	w.m[c] = struct{}{}
	return len(w.m)
}

// remove removes and closes c, and returns how many channels are left.
func (w *waiters) remove(c chan struct{}) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.m[c]; ok {
		delete(w.m, c)
		close(c)
	}
	return len(w.m)
}

func (w *waiters) removeAll() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := range w.m {
		close(c)
	}
	w.m = nil
}

// wake sends to every channel that has no value pending (coalescing).
func (w *waiters) wake() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for c := range w.m {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// clockCheck remembers that the positions passed the check once (they
// cannot go wrong while the server runs) and the database's xid shift read
// with it, which every append passes to its insert.
type clockCheck struct {
	mu    sync.Mutex
	ok    atomic.Bool
	shift int64 // written once, before ok is set
}

// aheadSQL reports whether a stored position is at or above what this
// server's transaction ids produce, which only events written by another
// server can be, and the database's xid shift.
const aheadSQL = `SELECT coalesce((SELECT max(position) FROM events), -1) >=
	(pg_snapshot_xmax(pg_current_snapshot())::text::bigint + s.shift) * 10000, s.shift
	FROM events_xid_shift s`

// shiftSQL raises the shift so that every transaction of this server not
// older than the statement's snapshot (xmin) gets positions above every
// stored one. It runs after aheadSQL, in the transaction holding the lock.
const shiftSQL = `UPDATE events_xid_shift SET shift =
	(SELECT max(position) FROM events) / 10000 + 1 - pg_snapshot_xmin(pg_current_snapshot())::text::bigint
	RETURNING shift`

// checkClock makes sure new positions come after the stored ones: when the
// events come from another server (a restored dump), it raises the
// database's xid shift (see "Moving a database" in the package doc). It
// returns the shift. The check and the shift are read once per Store: the
// shift changes only when a Store finds a restored log, before its first
// append, and the positions it checks cannot go wrong while the server
// runs.
func (s *Store) checkClock(ctx context.Context) (int64, error) {
	if s.clock.ok.Load() {
		return s.clock.shift, nil
	}
	s.clock.mu.Lock()
	defer s.clock.mu.Unlock()
	if s.clock.ok.Load() {
		return s.clock.shift, nil
	}
	var ahead bool
	var shift int64
	if err := s.pool.QueryRow(ctx, aheadSQL).Scan(&ahead, &shift); err != nil {
		return 0, fmt.Errorf("events/postgres: check positions: %w", err)
	}
	if ahead {
		var err error
		if shift, err = s.shiftClock(ctx); err != nil {
			return 0, err
		}
	}
	s.clock.shift = shift
	s.clock.ok.Store(true)
	return shift, nil
}

// shiftClock raises the xid shift if the positions are still ahead once it
// holds the shift's lock: another process may have raised it meanwhile, and
// raising it twice could put this process's positions below the other's.
// Each statement after the LOCK takes a snapshot that sees the shift
// committed by whoever held the lock before. It returns the shift.
func (s *Store) shiftClock(ctx context.Context) (int64, error) {
	var shift int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `LOCK TABLE events_xid_shift IN EXCLUSIVE MODE`); err != nil {
			return err
		}
		var ahead bool
		if err := tx.QueryRow(ctx, aheadSQL).Scan(&ahead, &shift); err != nil || !ahead {
			return err
		}
		return tx.QueryRow(ctx, shiftSQL).Scan(&shift)
	})
	if err != nil {
		return 0, fmt.Errorf("events/postgres: shift positions past a restored log: %w", err)
	}
	return shift, nil
}
