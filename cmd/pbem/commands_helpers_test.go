package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/cmd/internal/wiring"
	"pbem/engine"
	"pbem/events/play"
	"pbem/events/postgres/pgtest"
)

// commandDB returns a new migrated test database's URL, a pool on it
// (closed when the test ends) and the games serve plays: what the tests of
// pbem's commands play their games with before running a command.
func commandDB(t *testing.T) (string, *pgxpool.Pool, engine.Registry) {
	t.Helper()
	url := pgtest.NewDB(t)
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	games, err := wiring.Games()
	if err != nil {
		t.Fatal(err)
	}
	return url, pool, games
}

// pbemWith returns a function that runs `pbem ARGS...` in this process
// with env as its whole environment, and returns its exit status and what
// it printed (standard output, then standard error).
func pbemWith(ctx context.Context, env map[string]string) func(args ...string) (int, string) {
	return func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, args, func(k string) string { return env[k] }, &out, &errOut)
		return code, out.String() + errOut.String()
	}
}

// botsPlayToEnd hands seat 0 of game c, whose other seat is a bot, to an
// easy bot and lets the bots play until the game ends.
func botsPlayToEnd(t *testing.T, ctx context.Context, svc *play.Service, c *play.CreatedGame) {
	t.Helper()
	if _, err := svc.SeatBot(ctx, c.ID, c.AdminToken, 0, "easy"); err != nil {
		t.Fatal(err)
	}
	for step := 0; ; step++ {
		sm, err := svc.Summary(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if sm.Ended() {
			return
		}
		if step > 2000 {
			t.Fatal("the bots did not finish the game in 2000 decisions")
		}
		if _, err := svc.PlayBot(ctx, c.ID, sm.ToMove[0]); err != nil {
			t.Fatal(err)
		}
	}
}
