package main

import (
	"context"
	mrand "math/rand/v2"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// playResult is what the players did during the play.
type playResult struct {
	moves, games, conflicts int
	elapsed                 time.Duration
	lat                     []time.Duration // latencies of the accepted moves, sorted
	viewLat                 []time.Duration // latencies of the views read, sorted
}

// pct returns the p-quantile (0..1) of the sorted latencies lat.
func pct(lat []time.Duration, p float64) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	i := int(p * float64(len(lat)-1))
	return lat[i]
}

// play runs n players for d, and on until they have made minMoves moves
// together, each creating and playing its own games one after the other. Their goroutines carry the profiler label side=client
// (as do the transport's goroutines they start), so that in a CPU profile
// `go tool pprof -tagfocus side=client` shows what the clients cost.
func (lc *loadClient) play(ctx context.Context, n int, d time.Duration, minMoves int) (*playResult, error) {
	res := &playResult{}
	var mu sync.Mutex
	var firstErr error
	start := time.Now()
	stop := start.Add(d)
	var made atomic.Int64 // moves made by all the players
	more := func() bool { return time.Now().Before(stop) || made.Load() < int64(minMoves) }
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			pprof.Do(ctx, pprof.Labels("side", "client"), func(ctx context.Context) {
				p := &player{s: session{lc: lc, ctx: ctx}, rng: mrand.New(mrand.NewPCG(uint64(w), 1))}
				err := p.playWhile(more, &made)
				lc.record(p.ids)
				mu.Lock()
				defer mu.Unlock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				res.moves += p.moves
				res.games += len(p.ids)
				res.conflicts += p.conflicts
				res.lat = append(res.lat, p.lat...)
				res.viewLat = append(res.viewLat, p.viewLat...)
			})
		})
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	slices.Sort(res.lat)
	slices.Sort(res.viewLat)
	return res, firstErr
}
