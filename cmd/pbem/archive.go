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

// archiveAfter reads PBEM_ARCHIVE_AFTER: a Go duration, default 720h;
// "0" or a negative value archives nothing (0 returned).
func archiveAfter(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("PBEM_ARCHIVE_AFTER: %w", err)
	}
	return max(d, 0), nil
}

// startArchive runs serve's archive every archiveEvery, the first time
// archiveEvery after it starts, until ctx ends: the games that ended more
// than after ago (ppg.Archiver). The returned function stops it and
// waits. after 0 runs nothing.
func startArchive(ctx context.Context, log *slog.Logger, a *ppg.Archiver, after time.Duration) func() {
	if after == 0 {
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
			before := time.Now().Add(-after)
			if n, err := a.ArchiveEndedBefore(actx, before); err != nil && actx.Err() == nil {
				log.Error("archive", "err", err, "archived", n)
			} else if n > 0 {
				log.Info("archive: games' events archived", "games", n, "ended_before", before)
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// archiveCmd archives at once what serve's archive would: the events of
// the games that ended more than -after ago (default PBEM_ARCHIVE_AFTER),
// for an operator who wants the room back now. `pbem archive [-after D]`.
func archiveCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "archive")
	flagAfter := fs.String("after", "", "archive the games that ended this long ago (a Go duration; default PBEM_ARCHIVE_AFTER)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	after, err := archiveAfter(e.cfg.ArchiveAfter)
	if err != nil {
		return err
	}
	switch {
	case *flagAfter != "":
		if after, err = time.ParseDuration(*flagAfter); err != nil {
			return fmt.Errorf("-after: %w (a Go duration: 720h, 90m, 0s)", err)
		}
		if after < 0 {
			return fmt.Errorf("-after %s: want 0s or more", *flagAfter)
		}
	case after == 0:
		fmt.Fprintln(e.stdout, "PBEM_ARCHIVE_AFTER is 0: nothing archived (-after archives anyway)")
		return nil
	}
	_, pool, closeAll, err := openService(ctx, e)
	if err != nil {
		return err
	}
	defer closeAll()
	store := evpg.New(pool)
	defer store.Close()
	before := time.Now().Add(-after)
	n, err := ppg.NewArchiver(store).ArchiveEndedBefore(ctx, before)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "games archived: %d (of those ended before %s)\n", n, before.UTC().Format(time.RFC3339))
	return nil
}
