package migrations_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events/postgres/pgtest"
	"pbem/migrations"
)

// TestAMigrationDeadlockedByAServerRunsAgain: migration 0030 takes seats
// then games going up, games then seats going down. A session that holds
// the second table and then asks for the first, as a running server's
// transaction can, deadlocks with it; PostgreSQL gives the migration up
// (the session's deadlock_timeout keeps it from looking for the cycle
// first, which under load it could). The migration
// runs again once the session is done, and the version ends where asked,
// clean, where golang-migrate alone left it dirty and stopped every server.
func TestAMigrationDeadlockedByAServerRunsAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name          string
		from, to      uint
		first, second string
	}{
		{"up", 20, 30, "seats", "games"},
		{"down", 30, 20, "games", "seats"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			url := pgtest.NewEmptyDB(t)
			if err := migrations.To(url, c.from); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			server, err := pgx.Connect(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer server.Close(ctx)
			// Only the migration looks for the cycle: under load, the
			// session's own check could run first and give the session up
			// instead (a superuser setting; the tests' role is one).
			if _, err := server.Exec(ctx, "SET deadlock_timeout = '1h'"); err != nil {
				t.Fatal(err)
			}
			tx, err := server.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if _, err := tx.Exec(ctx, "LOCK TABLE "+c.second+" IN ACCESS SHARE MODE"); err != nil {
				t.Fatal(err)
			}

			done := make(chan error, 1)
			go func() { done <- migrations.To(url, c.to) }()
			waitForLockWait(t, ctx, server, c.second)
			// The cycle: the migration holds first and waits for second.
			// That this lock is granted at all shows the migration was
			// given up.
			if _, err := tx.Exec(ctx, "LOCK TABLE "+c.first+" IN ACCESS SHARE MODE"); err != nil {
				t.Fatalf("the session, not the migration, was given up: %v", err)
			}
			if err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			if err := <-done; err != nil {
				t.Fatalf("migrate %d to %d beside a deadlock: %v", c.from, c.to, err)
			}
			v, dirty, err := migrations.Version(url)
			if err != nil || v != c.to || dirty {
				t.Fatalf("version %d dirty %v (%v), want %d clean", v, dirty, err, c.to)
			}
		})
	}
}

// waitForLockWait waits until another session of the database waits for
// a lock on table.
func waitForLockWait(t *testing.T, ctx context.Context, conn *pgx.Conn, table string) {
	t.Helper()
	q := fmt.Sprintf(`SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = '%s'::regclass`, table)
	deadline := time.Now().Add(time.Minute)
	for {
		var n int
		if err := conn.QueryRow(ctx, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the migration never waited for %s", table)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
