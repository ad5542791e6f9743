package postgres_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pbem/engine"
	"pbem/engine/lords"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections/postgres"
)

// BenchmarkSeatReads measures what a play page reads of a four-player
// Lords of Scotland game 100 moves in (or ended before): a seat's whole history (the
// history page, GET /history) and its "since your last turn" over the
// last few events (SeatCatchUp with an open page's start, as a live
// update asks it: no visit is written), and the list of My games of a
// player of 20 games, each with its last line.
func BenchmarkSeatReads(b *testing.B) {
	ctx := context.Background()
	pool := pgtest.NewPool(b)
	store := evpg.New(pool)
	b.Cleanup(store.Close)
	lg, err := lords.New()
	if err != nil {
		b.Fatal(err)
	}
	secret := []byte("reads benchmark")
	svc := play1.New(play1.Config{Games: engine.NewRegistry(lg), Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret})
	req := play1.CreateGame{Organiser: play1.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name, Language: "en"}
	for _, n := range []string{"Ann", "Bob", "Cid", "Dee"} {
		req.Players = append(req.Players, play1.NewPlayer{Name: n, Email: n + "@example.org"})
	}
	c, err := svc.Create(ctx, req)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(18, 2))
	for range 100 {
		sm, err := svc.Summary(ctx, c.ID)
		if err != nil {
			b.Fatal(err)
		}
		if len(sm.ToMove) == 0 {
			break // a short deal: the game ended
		}
		v, err := playtest.SeatView(ctx, svc, secret, c.ID, sm.ToMove[0])
		if err != nil {
			b.Fatal(err)
		}
		mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := svc.MoveAs(ctx, c.ID, sm.ToMove[0], play1.MoveRequest{Version: v.Version, Move: play1.PostedMove(mv)}); err != nil {
			b.Fatal(err)
		}
	}
	sm, err := svc.Summary(ctx, c.ID)
	if err != nil {
		b.Fatal(err)
	}
	tok := tokens.Seat(secret, c.ID, 1, 0)
	b.Run("history", func(b *testing.B) {
		for range b.N {
			h, err := svc.History(ctx, c.ID, tok)
			if err != nil || int64(len(h.Events)) != sm.Version {
				b.Fatalf("history: %v", err)
			}
		}
	})
	b.Run("catchup", func(b *testing.B) {
		for range b.N {
			if _, err := svc.SeatCatchUp(ctx, c.ID, tok, sm.Version, sm.Version-6); err != nil {
				b.Fatal(err)
			}
		}
	})
	for range 19 {
		if _, err := svc.Create(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	if err := svc.RequestSignin(ctx, "ann@example.org", "en"); err != nil {
		b.Fatal(err)
	}
	var link string
	if err := pool.QueryRow(ctx, `SELECT payload->'game'->>'id' FROM outbox WHERE kind = 'signin'`).Scan(&link); err != nil {
		b.Fatal(err)
	}
	session, err := svc.SignIn(ctx, tokens.Signin(secret, link))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("mygames", func(b *testing.B) {
		for range b.N {
			_, gs, err := svc.MyGames(ctx, session)
			if err != nil || len(gs) != 20 || gs[0].LastMove == "" {
				b.Fatalf("my games: %d, %v", len(gs), err)
			}
		}
	})
}
