package play

import (
	"context"
	"sync"
	"time"

	"pbem/events"
	"pbem/projections"
)

// versionReader reads the current versions of games for views, which check
// their cached rows with it (see Service.game). Reads that arrive while a
// query is running wait for the next one, which asks for all of them at
// once: under load, many views share one query instead of sending one
// each. There is no goroutine while nobody waits.
type versionReader struct {
	repo projections.Repository

	mu      sync.Mutex
	waiting map[string][]chan versionResult
	running bool
}

type versionResult struct {
	v   int64
	err error
}

// versionTimeout bounds one shared query: it does not use its callers'
// contexts, since one caller going away must not fail the others.
const versionTimeout = 10 * time.Second

// version returns game id's version in the database. Errors: events.CodeNotFound,
// ctx's error, or a database error.
func (r *versionReader) version(ctx context.Context, id string) (int64, error) {
	ch := make(chan versionResult, 1)
	r.mu.Lock()
	if r.waiting == nil {
		r.waiting = map[string][]chan versionResult{}
	}
	r.waiting[id] = append(r.waiting[id], ch)
	if !r.running {
		r.running = true
		go r.run()
	}
	r.mu.Unlock()
	select {
	case res := <-ch:
		return res.v, res.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// run answers the waiting reads, one query per round, until none waits.
func (r *versionReader) run() {
	for {
		r.mu.Lock()
		batch := r.waiting
		r.waiting = nil
		if len(batch) == 0 {
			r.running = false
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		ids := make([]string, 0, len(batch))
		for id := range batch {
			ids = append(ids, id)
		}
		ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
		vs, err := r.repo.Versions(ctx, ids)
		cancel()
		for id, chs := range batch {
			res := versionResult{err: err}
			if err == nil {
				v, ok := vs[id]
				res.v = v
				if !ok {
					res.err = events.Errorf(events.CodeNotFound, "no game %q", id)
				}
			}
			for _, ch := range chs {
				ch <- res // buffered: a caller that left does not block
			}
		}
	}
}
