package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"sync"
	"testing"

	"pbem/engine"
	"pbem/projections"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// Two serve processes on one database, each with its own state cache, play
// one game in turns: every view either answers equals the view of a service
// without a cache, so neither serves a state the other has moved past.
func TestStateCacheAcrossServices(t *testing.T) {
	ctx := context.Background()
	svcA, repo, _, pool := newServiceNow(t, nil)
	games := engine.NewRegistry(testgame.Game{})
	svcB := projections.New(projections.Config{Games: games, Store: newStore(t, pool), Repo: postgres.New(pool), Secret: secret})
	plain := projections.New(projections.Config{Games: games, Store: newStore(t, pool), Repo: repo, Secret: secret,
		StateCache: -1})
	c := create(t, svcA, 3)
	rng := rand.New(rand.NewPCG(3, 4))
	svcs := []*projections.Service{svcA, svcB}
	for i := range 60 {
		g, err := repo.Game(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != projections.StatusActive {
			break
		}
		seat := g.ToMove[0]
		tok := projections.SeatToken(secret, c.ID, seat, 0)
		want, err := plain.View(ctx, c.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(want)
		for _, s := range svcs {
			v, err := s.View(ctx, c.ID, tok)
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := json.Marshal(v); !bytes.Equal(got, wantJSON) {
				t.Fatalf("move %d: cached view\n%s\nwant\n%s", i, got, wantJSON)
			}
		}
		mv, _ := json.Marshal(want.LegalMoves[rng.IntN(len(want.LegalMoves))])
		if _, err := svcs[i%2].Move(ctx, c.ID, tok, projections.MoveRequest{Version: want.Version, Move: mv}); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
}

// Many readers share one cached state while moves replace it (run with
// -race: cached states are only read).
func TestStateCacheConcurrentViews(t *testing.T) {
	ctx := context.Background()
	svc, repo, _ := newService(t, nil)
	c := create(t, svc, 3)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 10 {
		g, err := repo.Game(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != projections.StatusActive {
			break
		}
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for seat := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := svc.View(ctx, c.ID, projections.SeatToken(secret, c.ID, seat, 0)); err != nil {
					errs <- err
				}
			}()
		}
		tok := projections.SeatToken(secret, c.ID, g.ToMove[0], 0)
		v, err := svc.View(ctx, c.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		mv, _ := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		if _, err := svc.Move(ctx, c.ID, tok, projections.MoveRequest{Version: v.Version, Move: mv}); err != nil {
			t.Fatalf("move: %v", err)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}
