package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	playpg "pbem/events/play/postgres"
	"pbem/events/postgres/pgtest"
)

// BenchmarkDueDeadlines finds the due games (a batch of 100) among 100,000
// active games, 1% of them due, with the partial deadline index.
func BenchmarkDueDeadlines(b *testing.B) {
	pool := pgtest.NewPool(b)
	ctx := context.Background()
	now := time.Now().UTC()
	if _, err := pool.Exec(ctx, `INSERT INTO games (id, game, rules_version, language, players, status, version,
    seed_hash, admin_token_hash, created_at, updated_at, deadline_at, reminder_at)
SELECT 'g' || i, 'lords-of-scotland', '1', 'en', '["Ann","Bob"]', CASE WHEN i % 10 = 0 THEN 'finished' ELSE 'active' END,
    5, '\x00', '\x00', $1::timestamptz, $1::timestamptz,
    $1 + ((i % 100) - 1) * interval '1 hour', $1 + ((i % 100) - 2) * interval '1 hour'
FROM generate_series(1, 111111) AS i`, now); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `ANALYZE games`); err != nil {
		b.Fatal(err)
	}
	var active int
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM games WHERE status = 'active'`).Scan(&active)
	d := playpg.NewDeadlines(pool)
	// A sub-benchmark, so that the 100,000 rows are inserted once.
	b.Run(fmt.Sprintf("active=%d", active), func(b *testing.B) {
		for range b.N {
			due, err := d.DueDeadlines(ctx, now, 100)
			if err != nil {
				b.Fatal(err)
			}
			if len(due) != 100 {
				b.Fatalf("%d due games among %d active", len(due), active)
			}
		}
	})
}
