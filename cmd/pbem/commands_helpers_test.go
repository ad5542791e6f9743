package main

import (
	"bytes"
	"context"
	"testing"

	"pbem/events/play"
)

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
