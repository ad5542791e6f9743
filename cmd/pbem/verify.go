package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// verify replays games from their events, checks their hash chains and
// seeds, and compares the result with the projections:
// `pbem verify GAME...` or `pbem verify --all`. It prints one line per
// game (in the order of the ids, several games checked at once: -workers)
// and exits with status 1 if any game does not match.
func verify(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "verify")
	all := fs.Bool("all", false, "verify every game")
	workers := fs.Int("workers", defaultWorkers(), "games verified at once")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *all == (fs.NArg() > 0) {
		return errors.New("give game ids or --all")
	}
	svc, _, closeAll, err := openService(ctx, e)
	if err != nil {
		return err
	}
	defer closeAll()
	ids := fs.Args()
	if *all {
		if ids, err = svc.GameIDs(ctx); err != nil {
			return err
		}
	}
	bad := 0
	start := time.Now()
	err = eachGame(ctx, ids, *workers, svc.Verify, func(_ int, id string, err error) error {
		if err != nil {
			bad++
			fmt.Fprintf(e.stdout, "FAIL %s: %v\n", id, err)
			return nil
		}
		fmt.Fprintf(e.stdout, "ok   %s\n", id)
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%d games verified, %d failed, in %s\n", len(ids), bad, time.Since(start).Round(time.Millisecond))
	if bad > 0 {
		return exitError{code: 1}
	}
	return nil
}
