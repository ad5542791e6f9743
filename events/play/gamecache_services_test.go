package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"sync"
	"testing"

	"pbem/engine"
	"pbem/events"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/testgame"
)

// Two serve processes on one database, each with its own game cache, play
// one game in turns: every view either answers equals the view of a service
// without a cache, so neither serves a state the other has moved past.
func TestGameCacheAcrossServices(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svcA, repo, _, pool := playtest.NewService(t, nil)
	games := engine.NewRegistry(testgame.Game{})
	svcB := playtest.OtherService(t, pool)
	plain := play.New(play.Config{Games: games, Store: playtest.NewStore(t, pool), Repo: repo, Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret,
		GameCache: -1})
	c := playtest.Create(t, svcA, 3)
	rng := rand.New(rand.NewPCG(3, 4))
	svcs := []*play.Service{svcA, svcB}
	for i := range 60 {
		g, err := repo.Game(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != projections.StatusActive {
			break
		}
		seat := g.ToMove[0]
		tok := tokens.Seat(secret, c.ID, seat, 0)
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
		if _, err := svcs[i%2].Move(ctx, c.ID, tok, play.MoveRequest{Version: want.Version, Move: playtest.MoveOf(t, want, rng)}); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
	}
}

// Many readers share one cached state while moves replace it (run with
// -race: cached states are only read).
func TestGameCacheConcurrentViews(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _ := newService(t, nil)
	c := playtest.Create(t, svc, 3)
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
				if _, err := svc.View(ctx, c.ID, tokens.Seat(secret, c.ID, seat, 0)); err != nil {
					errs <- err
				}
			}()
		}
		tok := tokens.Seat(secret, c.ID, g.ToMove[0], 0)
		v, err := svc.View(ctx, c.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Move(ctx, c.ID, tok, play.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)}); err != nil {
			t.Fatalf("move: %v", err)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}

// A process whose cached row is behind the database (another process
// moved) answers a move at its stale version with a conflict and writes
// nothing, then plays the client's move at the current version.
func TestGameCacheStaleMoveConflicts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svcA, repo, _, pool := playtest.NewService(t, nil)
	svcB := playtest.OtherService(t, pool)
	c := playtest.Create(t, svcA, 2)
	rng := rand.New(rand.NewPCG(7, 8))
	g, _ := repo.Game(ctx, c.ID)
	tok := tokens.Seat(secret, c.ID, g.ToMove[0], 0)
	v, err := svcB.View(ctx, c.ID, tok) // B caches the game
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svcA.Move(ctx, c.ID, tok, play.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)}); err != nil {
		t.Fatal(err)
	}
	_, err = svcB.Move(ctx, c.ID, tok, play.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)})
	if play.ErrorCode(err) != events.CodeConflict {
		t.Fatalf("stale move through a stale cache: %v, want a conflict", err)
	}
	if g2, _ := repo.Game(ctx, c.ID); g2.Version != v.Version+1 {
		t.Fatalf("version %d after one move from %d: the stale move wrote", g2.Version, v.Version)
	}
	g, _ = repo.Game(ctx, c.ID)
	tok = tokens.Seat(secret, c.ID, g.ToMove[0], 0)
	v, err = svcA.View(ctx, c.ID, tok)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svcB.Move(ctx, c.ID, tok, play.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)}); err != nil {
		t.Fatalf("move at the current version through B: %v", err)
	}
}

// A link resent through one process revokes the old token in another
// process that has the game cached: its views refuse it and its moves
// write nothing; the new token plays.
func TestGameCacheRevokedLinkAcrossServices(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svcA, repo, _, pool := playtest.NewService(t, nil)
	svcB := playtest.OtherService(t, pool)
	c := playtest.Create(t, svcA, 2)
	rng := rand.New(rand.NewPCG(9, 10))
	g, _ := repo.Game(ctx, c.ID)
	seat := g.ToMove[0]
	old := tokens.Seat(secret, c.ID, seat, 0)
	v, err := svcB.View(ctx, c.ID, old) // B caches the game and the old token's hash
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svcA.ResendLink(ctx, c.ID, c.AdminToken, seat); err != nil {
		t.Fatal(err)
	}
	if _, err := svcB.View(ctx, c.ID, old); play.ErrorCode(err) != events.CodeUnauthorized {
		t.Fatalf("view with the revoked token through B: %v, want unauthorized", err)
	}
	before, _ := repo.Game(ctx, c.ID)
	for _, version := range []int64{v.Version, before.Version} {
		_, err := svcB.Move(ctx, c.ID, old, play.MoveRequest{Version: version, Move: playtest.MoveOf(t, v, rng)})
		if code := play.ErrorCode(err); code != events.CodeUnauthorized && code != events.CodeConflict {
			t.Fatalf("move with the revoked token at version %d: %v, want unauthorized or conflict", version, err)
		}
	}
	if after, _ := repo.Game(ctx, c.ID); after.Version != before.Version {
		t.Fatalf("a revoked token moved the game from version %d to %d", before.Version, after.Version)
	}
	tok := tokens.Seat(secret, c.ID, seat, 1)
	nv, err := svcB.View(ctx, c.ID, tok)
	if err != nil {
		t.Fatalf("view with the new token: %v", err)
	}
	if _, err := svcB.Move(ctx, c.ID, tok, play.MoveRequest{Version: nv.Version, Move: playtest.MoveOf(t, nv, rng)}); err != nil {
		t.Fatalf("move with the new token: %v", err)
	}
}
