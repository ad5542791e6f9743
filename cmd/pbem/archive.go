package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	evpg "pbem/events/postgres"
	ppg "pbem/projections/postgres"
)

// archiveEvery is how often serve archives the games ended long enough
// ago, and how long after it starts it does so first: by then the servers
// of a release before the archive (migration 0107), which would read an
// archived game as its first and last events, are gone.
const archiveEvery = time.Hour

// archiveBatch is how many games a pass archives between two reads of the
// ended games.
const archiveBatch = 100

// archiver archives the event streams of the games that ended more than
// after ago (events/postgres Store.Archive): a finished four-player game
// takes a third of the room (docs/performance.md, issue #45).
type archiver struct {
	games interface {
		EndedBefore(ctx context.Context, before time.Time, after ppg.EndCursor, limit int) ([]string, ppg.EndCursor, error)
	}
	store interface {
		Archive(ctx context.Context, streams []string) (int, error)
	}
	after time.Duration
	now   func() time.Time
	// walked is where the walk through the ended games stands: the games
	// before it were archived by an earlier pass (or had nothing to).
	walked ppg.EndCursor
}

// pass archives the games that ended more than a.after ago and that no
// earlier pass of a took, and returns how many streams it archived.
func (a *archiver) pass(ctx context.Context) (int, error) {
	total := 0
	for {
		ids, next, err := a.games.EndedBefore(ctx, a.now().Add(-a.after), a.walked, archiveBatch)
		if err != nil || len(ids) == 0 {
			return total, err
		}
		n, err := a.store.Archive(ctx, ids)
		total += n
		if err != nil {
			return total, err
		}
		a.walked = next
	}
}

// archiveAfter reads PBEM_ARCHIVE_AFTER: a Go duration, default 720h;
// "0" or a negative value archives nothing (0 returned).
func archiveAfter(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("PBEM_ARCHIVE_AFTER: %w", err)
	}
	return max(d, 0), nil
}

// startArchive runs serve's archiver every archiveEvery, the first time
// archiveEvery after it starts, until ctx ends; the returned function
// stops it and waits. after 0 runs nothing.
func startArchive(ctx context.Context, log *slog.Logger, a *archiver) func() {
	if a.after == 0 {
		return func() {}
	}
	actx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(archiveEvery)
		defer tick.Stop()
		for {
			select {
			case <-actx.Done():
				return
			case <-tick.C:
			}
			if n, err := a.pass(actx); err != nil && actx.Err() == nil {
				log.Error("archive", "err", err, "archived", n)
			} else if n > 0 {
				log.Info("archive: games' events archived", "games", n, "ended_before", a.now().Add(-a.after))
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// newArchiver returns serve's archiver on the store's pool.
func newArchiver(store *evpg.Store, after time.Duration) *archiver {
	return &archiver{games: ppg.New(store.Pool()), store: store, after: after, now: time.Now}
}
