package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// remoteLoadtest drives a pbem serve that runs apart (o.url), so that the
// server's CPU is counted apart from its clients': this process holds only
// the players. It needs the server's secret (PBEM_SECRET: the players
// confirm their games and play their seats with tokens derived from it),
// and the server must run without rate limits (PBEM_LIMIT_*=off). With
// -pid it reads the server's CPU from /proc; with DATABASE_URL (the
// server's database) the CPU of that database's backends and of the whole
// PostgreSQL cluster. It creates o.games games, then plays for o.duration
// as the in-process test does; there is no plain INSERT baseline.
func remoteLoadtest(ctx context.Context, o options, stdout io.Writer) error {
	if len(o.secret) == 0 {
		return errors.New("-url needs PBEM_SECRET, the secret of the server it drives")
	}
	if o.players < 1 || o.seats < 1 {
		return errors.New("-players and -seats must be positive")
	}
	var pool *pgxpool.Pool
	if o.databaseURL != "" {
		cfg, err := pgxpool.ParseConfig(o.databaseURL)
		if err != nil {
			return err
		}
		cfg.MaxConns = 2
		if pool, err = pgxpool.NewWithConfig(ctx, cfg); err != nil {
			return err
		}
		defer pool.Close()
	}
	lc, err := newLoadClient(strings.TrimSuffix(o.url, "/"), o.secret, o.game, o.seats, o.players)
	if err != nil {
		return err
	}
	defer lc.close()
	fmt.Fprintf(stdout, "loadtest: %d players, %d CPUs, server %s (pid %d)\n", o.players, runtime.NumCPU(), o.url, o.pid)
	start := time.Now()
	if err := lc.createMany(ctx, o.players, o.games); err != nil {
		return err
	}
	if o.games > 0 {
		fmt.Fprintf(stdout, "created:        %d games in %s\n", o.games, time.Since(start).Round(time.Millisecond))
	}
	clock := cpuClock{pool: pool, serverPID: o.pid}
	before := clock.read(ctx)
	res, err := lc.play(ctx, o.players, o.duration, o.minMoves)
	if err != nil {
		return err
	}
	after := clock.read(ctx)
	report(stdout, res, 0, before, after)
	fmt.Fprintf(stdout, "CPU per move:   %s (views and creations included)\n", perOp(before, after, res.moves))
	return nil
}
