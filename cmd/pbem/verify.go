package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"pbem/cmd/internal/wiring"
	"pbem/events/play"
)

// verify replays games from their events, checks their hash chains and
// seeds, and compares the result with the projections:
// `pbem verify GAME...` or `pbem verify --all`. It prints one line per
// game (in the order of the ids, several games checked at once: -workers)
// and exits with status 1 if any game does not match. `pbem verify
// --audit FILE` (- for standard input) checks a downloaded audit record
// offline, without a database (see verifyAudit).
func verify(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "verify")
	all := fs.Bool("all", false, "verify every game")
	workers := fs.Int("workers", defaultWorkers(), "games verified at once")
	audit := fs.String("audit", "", "check an audit record (GET /api/v1/games/{id}/audit) offline: a file, or - for standard input")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *audit != "" {
		if *all || fs.NArg() > 0 {
			return errors.New("give --audit FILE alone")
		}
		return verifyAudit(e, *audit)
	}
	if *all == (fs.NArg() > 0) {
		return errors.New("give game ids, --all or --audit FILE")
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
	if *all {
		// The records and ratings (issue #46) against the events of every
		// ended game.
		if n, pending, err := svc.VerifyRecords(ctx); err != nil {
			bad++
			fmt.Fprintf(e.stdout, "FAIL records: %v\n", err)
		} else {
			fmt.Fprintf(e.stdout, "records of %d ended games and the ratings match their events (%d ended games not folded yet)\n", n, pending)
		}
	}
	fmt.Fprintf(e.stdout, "%d games verified, %d failed, in %s\n", len(ids), bad, time.Since(start).Round(time.Millisecond))
	if bad > 0 {
		return exitError{code: 1}
	}
	return nil
}

// verifyAudit checks the audit record in file (- for standard input)
// offline with play.CheckAudit: the revealed seed and key, every hash,
// every shuffle. It prints one line and exits with status 1 when the
// record does not check, naming the event's version.
func verifyAudit(e *env, file string) error {
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(io.LimitReader(os.Stdin, 256<<20))
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return err
	}
	var a play.Audit
	if err := json.Unmarshal(data, &a); err != nil {
		return fmt.Errorf("%s is not an audit record: %w", file, err)
	}
	games, err := wiring.Games()
	if err != nil {
		return err
	}
	rep, err := play.CheckAudit(games, &a)
	if err != nil {
		fmt.Fprintf(e.stdout, "FAIL %s: %v\n", a.GameID, err)
		return exitError{code: 1}
	}
	fmt.Fprintf(e.stdout, "ok   %s: %d events, chain format %d, seed and key as published, every hash and %d decisions replayed from the seed\n",
		a.GameID, rep.Events, rep.Format, rep.Decisions)
	return nil
}
