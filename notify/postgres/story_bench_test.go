package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/notify"
	"pbem/notify/postgres"
)

// BenchmarkStoryOutboxThroughput sends the emails of 4 whole 3-player
// games of Lords of Scotland (mostly your-turn emails) to a loopback SMTP
// server, with the worker reading each seat's story and time zone (story)
// and without (payload). Report emails/s.
func BenchmarkStoryOutboxThroughput(b *testing.B) {
	e := newStoryEnv(b)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 4 {
		c := e.create(lords.Name, "en", 3)
		for e.playRandom(c.ID, rng) {
		}
	}
	var rows int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM outbox`).Scan(&rows); err != nil {
		b.Fatal(err)
	}
	for _, withStory := range []bool{true, false} {
		b.Run(fmt.Sprintf("story=%v", withStory), func(b *testing.B) {
			cfg := notify.WorkerConfig{Store: postgres.NewOutbox(e.pool), Sender: smtpSender(b, e.sink), Renderer: testRenderer(b),
				Batch: 100, Lease: time.Minute, RecordFor: -1, Now: func() time.Time { return time.Now().Add(time.Second) }}
			if withStory {
				cfg.Seats = postgres.NewSeats(e.pool, postgres.Histories{Games: e.games, Events: e.store})
			}
			w, err := notify.NewWorker(cfg)
			if err != nil {
				b.Fatal(err)
			}
			var elapsed time.Duration
			sent := 0
			for range b.N {
				if _, err := e.pool.Exec(ctx, `UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = now() - interval '1 second'`); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for {
					n, err := w.RunOnce(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if n == 0 {
						break
					}
					sent += n
				}
				elapsed += time.Since(start)
			}
			b.ReportMetric(float64(sent)/elapsed.Seconds(), "emails/s")
			b.ReportMetric(float64(rows), "rows")
		})
	}
}
