package main

import (
	"context"
	"errors"
	"fmt"
)

// verify replays games from their events, checks their hash chains and
// seeds, and compares the result with the projections:
// `pbem verify GAME...` or `pbem verify --all`. It prints one line per
// game and exits with status 1 if any game does not match.
func verify(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "verify")
	all := fs.Bool("all", false, "verify every game")
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
	for _, id := range ids {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := svc.Verify(ctx, id); err != nil {
			bad++
			fmt.Fprintf(e.stdout, "FAIL %s: %v\n", id, err)
			continue
		}
		fmt.Fprintf(e.stdout, "ok   %s\n", id)
	}
	fmt.Fprintf(e.stdout, "%d games verified, %d failed\n", len(ids), bad)
	if bad > 0 {
		return exitError{code: 1}
	}
	return nil
}
