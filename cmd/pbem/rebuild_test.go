package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/tokens"
	ppg "pbem/projections/postgres"
)

// TestRebuildAndVerifyCommands plays a few Lords games through the service,
// then runs `pbem rebuild` and `pbem verify --all` (all fine), tampers with
// one event and expects verify to fail with exit status 1.
func TestRebuildAndVerifyCommands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, pool, games := commandDB(t)
	store := evpg.New(pool)
	defer store.Close()
	secret := []byte("a secret of at least thirty-two bytes")
	svc := play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret})
	rng := rand.New(rand.NewPCG(1, 1))
	var ids []string
	for n := 2; n <= 4; n++ {
		req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: "lords-of-scotland"}
		for i := range n {
			req.Players = append(req.Players, play.NewPlayer{Name: string(rune('A' + i)), Email: string(rune('a'+i)) + "@example.org"})
		}
		c, err := svc.Create(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
		for range 20 {
			sm, err := svc.Summary(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			seat := sm.ToMove[0]
			tok := tokens.Seat(secret, c.ID, seat, 0)
			v, err := svc.View(ctx, c.ID, tok)
			if err != nil {
				t.Fatal(err)
			}
			mv, _ := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
			if _, err := svc.Move(ctx, c.ID, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	env := map[string]string{"DATABASE_URL": url, "PBEM_SECRET": string(secret), "PBEM_DATA": t.TempDir()}
	pbem := pbemWith(ctx, env)
	if code, out := pbem("rebuild"); code != 0 || !strings.Contains(out, "rebuilt 3 games") || strings.Contains(out, "\r") {
		t.Fatalf("rebuild: %d\n%s", code, out)
	}
	if code, out := pbem("verify", "--all"); code != 0 || strings.Count(out, "ok ") != 3 {
		t.Fatalf("verify: %d\n%s", code, out)
	}
	if _, err := pool.Exec(ctx, `UPDATE events SET actor = 'seat:9' WHERE stream = $1 AND version = 5`, ids[1]); err != nil {
		t.Fatal(err)
	}
	code, out := pbem("verify", "--all")
	if code != 1 || !strings.Contains(out, "FAIL "+ids[1]) || strings.Count(out, "ok ") != 2 {
		t.Fatalf("verify after tampering: %d\n%s", code, out)
	}
	if code, _ := pbem("verify"); code != 1 {
		t.Fatalf("verify without games: %d", code)
	}
}
