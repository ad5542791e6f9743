package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// KeepWAL prepares a test that reads the WAL its statements write with
// pg_walinspect: it creates the extension in pool's database and a
// temporary physical replication slot that keeps the server's WAL from
// now on (a checkpoint would otherwise remove the segments the test reads,
// on a server shared with other tests). The test reads from
// pg_current_wal_lsn() taken after it. The slot goes with the test.
func KeepWAL(tb testing.TB, pool *pgxpool.Pool) {
	tb.Helper()
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_walinspect`); err != nil {
		tb.Fatalf("pgtest: pg_walinspect: %v", err)
	}
	// A temporary slot lives as long as its session: hold a connection.
	conn, err := pool.Acquire(ctx)
	if err != nil {
		tb.Fatalf("pgtest: keep WAL: %v", err)
	}
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	slot := "pgtest_" + hex.EncodeToString(b)
	if _, err := conn.Exec(ctx, `SELECT pg_create_physical_replication_slot($1, true, true)`, slot); err != nil {
		conn.Release()
		tb.Fatalf("pgtest: replication slot: %v", err)
	}
	tb.Cleanup(func() {
		_, _ = conn.Exec(context.Background(), `SELECT pg_drop_replication_slot($1)`, slot)
		conn.Release()
	})
}

// FlushedLSN returns an LSN up to which every WAL record written so far
// is on disk, for the end of a pg_walinspect read. It commits a transaction
// with synchronous_commit on, whose flush covers every record before its
// own: on a server running with synchronous_commit = off (as developers'
// may), pg_current_wal_flush_lsn() lags the last asynchronous commits, and
// a read up to it would miss their records. The transaction writes a
// logical message, since PostgreSQL commits a transaction that wrote no
// WAL asynchronously whatever synchronous_commit says.
func FlushedLSN(tb testing.TB, pool *pgxpool.Pool) string {
	tb.Helper()
	ctx := context.Background()
	tx, err := pool.Begin(ctx)
	if err != nil {
		tb.Fatalf("pgtest: flush WAL: %v", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var lsn string
	if _, err := tx.Exec(ctx, `SET LOCAL synchronous_commit = on`); err != nil {
		tb.Fatalf("pgtest: flush WAL: %v", err)
	}
	if err := tx.QueryRow(ctx, `SELECT pg_current_wal_insert_lsn()::text`).Scan(&lsn); err != nil {
		tb.Fatalf("pgtest: flush WAL: %v", err)
	}
	if _, err := tx.Exec(ctx, `SELECT pg_logical_emit_message(true, 'pgtest', 'flush')`); err != nil {
		tb.Fatalf("pgtest: flush WAL: %v", err)
	}
	if err := tx.Commit(ctx); err != nil {
		tb.Fatalf("pgtest: flush WAL: %v", err)
	}
	return lsn
}
