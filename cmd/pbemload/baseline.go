package main

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// plainInserts runs single-row INSERTs (each its own transaction) from n
// goroutines for d and returns the rows per second and the row count.
func plainInserts(ctx context.Context, pool *pgxpool.Pool, n int, d time.Duration) (float64, int, error) {
	if _, err := pool.Exec(ctx, `CREATE TABLE plain_insert (id bigserial PRIMARY KEY, game text NOT NULL,
		data jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return 0, 0, err
	}
	var count atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	stop := start.Add(d)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				if _, err := pool.Exec(ctx, `INSERT INTO plain_insert (game, data) VALUES ($1, $2)`,
					"g", `{"seat":1,"card":42}`); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				count.Add(1)
			}
		}()
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return 0, 0, err
	}
	return float64(count.Load()) / time.Since(start).Seconds(), int(count.Load()), nil
}
