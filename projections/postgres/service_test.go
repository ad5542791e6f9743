package postgres_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/events"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

var secret = []byte("test secret")

// newService returns a service on a fresh database, with the event store
// given by store (nil: the memory store).
func newService(t *testing.T, now func() time.Time) (*play1.Service, *postgres.Repo, events.Store) {
	t.Helper()
	svc, repo, store, _ := newServiceNow(t, now)
	return svc, repo, store
}

// newServiceClock returns a service whose clock reads *clock.
func newServiceClock(t *testing.T, clock *time.Time) (*play1.Service, *postgres.Repo, events.Store, *pgxpool.Pool) {
	t.Helper()
	return newServiceNow(t, func() time.Time { return *clock })
}

func newServiceNow(t *testing.T, now func() time.Time) (*play1.Service, *postgres.Repo, events.Store, *pgxpool.Pool) {
	t.Helper()
	pool := pgtest.NewPool(t)
	repo := postgres.New(pool)
	store := newStore(t, pool)
	svc := play1.New(play1.Config{Games: engine.NewRegistry(testgame.Game{}), Store: store, Repo: repo, Accounts: playpg.New(pool), Visits: playpg.New(pool),
		Secret: secret, Now: now, Seeds: playtest.Seeds(t.Name())})
	return svc, repo, store, pool
}

func create(t *testing.T, svc *play1.Service, n int) *play1.CreatedGame {
	t.Helper()
	return createWith(t, svc, n, `{"target":25}`)
}

// createWith is create with the test game's options (JSON).
func createWith(t *testing.T, svc *play1.Service, n int, options string) *play1.CreatedGame {
	t.Helper()
	names := []string{"Ann", "Bob", "Cid", "Dee", "Eve"}
	req := play1.CreateGame{Organiser: play1.Organiser{Name: "Org", Email: "org@example.org"}, Game: testgame.Name, Options: json.RawMessage(options)}
	for i := range n {
		req.Players = append(req.Players, play1.NewPlayer{Name: names[i], Email: names[i] + "@example.org"})
	}
	c, err := svc.Create(context.Background(), req)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return c
}

// moveOf returns a legal move of view v as JSON.
func moveOf(t testing.TB, v *play1.View, rng *rand.Rand) play1.PostedMove {
	t.Helper()
	mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
	if err != nil {
		t.Fatal(err)
	}
	return mv
}

// otherService returns a second service (another process, as it were) on
// the database of pool, with its own event store and game cache.
func otherService(t *testing.T, pool *pgxpool.Pool) *play1.Service {
	t.Helper()
	return play1.New(play1.Config{Games: engine.NewRegistry(testgame.Game{}), Store: newStore(t, pool),
		Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret,
		Seeds: playtest.Seeds(t.Name() + "/other service")})
}

func TestServicePlaysAGameToTheEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _ := newService(t, nil)
	c := create(t, svc, 3)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		g, err := repo.Game(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != projections.StatusActive {
			break
		}
		seat := g.ToMove[0]
		tok := tokens.Seat(secret, c.ID, seat, 0)
		v, err := svc.View(ctx, c.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Move(ctx, c.ID, tok, play1.MoveRequest{Version: v.Version, Move: moveOf(t, v, rng)}); err != nil {
			t.Fatalf("move: %v", err)
		}
	}
	sm, err := svc.Summary(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sm.Status != projections.StatusFinished || sm.Result == nil || len(sm.Result.Ranking) != 3 {
		t.Fatalf("summary = %+v", sm)
	}
	a, err := svc.Audit(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Seed) != 64 || int64(len(a.Events)) != sm.Version {
		t.Fatalf("audit: seed %q, %d events, version %d", a.Seed, len(a.Events), sm.Version)
	}
}
