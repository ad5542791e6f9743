package main

import (
	"context"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"
)

// defaultWorkers is how many games verify and rebuild work on at once by
// default: twice the CPUs, so that one game's Go work overlaps another's
// wait for PostgreSQL (on 2 cores, 4 workers did 1.9× the games/s of one).
func defaultWorkers() int { return 2 * runtime.GOMAXPROCS(0) }

// eachGame calls work for every id, up to workers at once, and reports each
// outcome to report in the order of ids, one at a time, so output stays in
// order. It stops at the first error report returns (or when ctx ends) and
// returns that error.
func eachGame(ctx context.Context, ids []string, workers int,
	work func(ctx context.Context, id string) error, report func(i int, id string, err error) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	var mu sync.Mutex
	outcome := make([]error, len(ids))
	finished := make([]bool, len(ids))
	next := 0
	for i, id := range ids {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			err := work(gctx, id)
			mu.Lock()
			defer mu.Unlock()
			outcome[i], finished[i] = err, true
			for next < len(ids) && finished[next] {
				if rerr := report(next, ids[next], outcome[next]); rerr != nil {
					return rerr
				}
				outcome[next] = nil
				next++
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
