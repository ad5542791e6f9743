package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// BenchmarkOutboxThroughput sends b.N outbox rows to a loopback SMTP sink
// with one worker (batches of 100 on one connection each). Report emails/s.
func BenchmarkOutboxThroughput(b *testing.B) {
	pool := newPool(b)
	sink := smtpsink.Start(b, smtpsink.Options{})
	insert(b, pool, time.Now().Add(-time.Second), outbox.YourTurn, b.N, "ann@example.org")
	w := newWorker(b, pool, workerOpts{sender: smtpSender(b, sink), batch: 100})
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	sent := 0
	for sent < b.N {
		n, err := w.RunOnce(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			b.Fatalf("only %d of %d rows claimed", sent, b.N)
		}
		sent += n
	}
	b.ReportMetric(float64(sent)/time.Since(start).Seconds(), "emails/s")
	b.StopTimer()
	if got := len(sink.Messages()); got != b.N {
		b.Fatalf("sink received %d, want %d", got, b.N)
	}
}

// BenchmarkDueDeadlines finds the due games (a batch of 100) among 100,000
// active games, 1% of them due, with the partial deadline index.
func BenchmarkDueDeadlines(b *testing.B) {
	pool := newPool(b)
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
	d := postgres.NewDeadlines(pool, postgres.Histories{})
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
