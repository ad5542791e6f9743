// Command pbemload measures pbem's whole move path on this machine: moves/s,
// the latency of POST /moves, CPU per move and memory, beside a plain
// INSERT's rate in the same run.
//
//	pbemload [flags]
//
// It finds PostgreSQL as pbem does (DATABASE_URL, else 127.0.0.1:5432, else
// a private cluster in PBEM_DATA), creates a scratch database there (dropped
// at the end), runs pbem's API in its own process on a loopback port, and
// plays it over HTTP with net/http and encoding/json, as any client would.
// The phases are described at loadtest. It is a separate command so that the
// product binary only serves and administers.
//
// A first argument "loadtest" is accepted and ignored, so that scripts
// written for the former `pbem loadtest` run it unchanged.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// options are pbemload's settings, from its flags and the environment.
type options struct {
	players      int           // concurrent players (HTTP clients)
	duration     time.Duration // how long to play
	minMoves     int           // the play goes on past duration until this many moves are made
	baseline     time.Duration // how long to run the plain INSERT baseline
	games        int           // active games created before the play (0: none)
	game         string        // the game played
	seats        int           // players per game
	genericPlans bool          // plan_cache_mode=force_generic_plan on the server's connections
	cpuprofile   string        // CPU profile of the play phase, or ""
	db           string        // an existing migrated database to play on (kept), or "" for a scratch one
	databaseURL  string        // DATABASE_URL, or "" to find a server as pbem does
	dataDir      string        // PBEM_DATA: where a private cluster lives
	gogc         string        // GOGC, GOMEMLIMIT: the collector settings the operator chose (wiring.TuneGC)
	gomemlimit   string
	url          string // a pbem serve running apart to drive (remoteLoadtest), or "" to serve in this process
	pid          int    // that server's process id, for its CPU (0: not measured)
	secret       []byte // PBEM_SECRET: that server's secret
}

// run parses args and runs the load test; it returns the exit code: 0 on
// success, 1 when the test failed, 2 for a command-line error.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "loadtest" {
		args = args[1:]
	}
	fs := flag.NewFlagSet("pbemload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: pbemload [flags]\n\nenvironment: DATABASE_URL, PBEM_DATA, PBEM_SECRET with -url (see docs/performance.md)\n\nflags:")
		fs.PrintDefaults()
	}
	var o options
	fs.IntVar(&o.players, "players", 32, "concurrent players (HTTP clients)")
	fs.DurationVar(&o.duration, "duration", 20*time.Second, "how long to play")
	fs.IntVar(&o.minMoves, "min-moves", 0, "play on past -duration until the players have made this many moves (0: stop at -duration)")
	fs.DurationVar(&o.baseline, "baseline", 5*time.Second, "how long to run the plain INSERT baseline")
	fs.IntVar(&o.games, "games", 10000, "active games to create before the play, then read for the memory figure (0: none)")
	fs.StringVar(&o.game, "game", "lords-of-scotland", "the game to play")
	fs.IntVar(&o.seats, "seats", 4, "players per game")
	fs.BoolVar(&o.genericPlans, "generic-plans", false, "plan_cache_mode=force_generic_plan on the server's connections")
	fs.StringVar(&o.db, "db", "", "play on this existing, migrated database (URL; kept, games added) instead of a scratch one: bench/history")
	fs.StringVar(&o.url, "url", "", "drive this separately running pbem serve (its base URL; PBEM_SECRET its secret, PBEM_LIMIT_*=off) instead of serving in this process")
	fs.IntVar(&o.pid, "pid", 0, "with -url: the server's process id, whose CPU is then counted apart from the clients'")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the play phase to this file (players labelled side=client)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pbemload: unexpected arguments: %v\n", fs.Args())
		return 2
	}
	o.databaseURL = strings.TrimSpace(getenv("DATABASE_URL"))
	o.dataDir = strings.TrimSpace(getenv("PBEM_DATA"))
	if o.dataDir == "" {
		o.dataDir = "data"
	}
	o.gogc, o.gomemlimit = getenv("GOGC"), getenv("GOMEMLIMIT")
	o.secret = []byte(strings.TrimSpace(getenv("PBEM_SECRET")))
	if err := loadtest(ctx, o, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "pbemload: %v\n", err)
		return 1
	}
	return 0
}
