package playtest

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// Secret is the secret of the services NewService and OtherService make:
// a test derives its seats' links from it (tokens.Seat).
const Secret = "test secret"

// NewService returns a game service playing the test game
// (projections/testgame) on a fresh database, as serve wires it (the
// PostgreSQL event store, read models, accounts and visits), with its
// repository, event store and pool. Its clock is now (nil: the real one);
// it deals from Seeds(t.Name()).
func NewService(t testing.TB, now func() time.Time) (*play.Service, *postgres.Repo, events.Store, *pgxpool.Pool) {
	t.Helper()
	pool := pgtest.NewPool(t)
	repo := postgres.New(pool)
	store := NewStore(t, pool)
	svc := play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: store, Repo: repo, Accounts: playpg.New(pool), Visits: playpg.New(pool),
		Secret: []byte(Secret), Now: now, Seeds: Seeds(t.Name())})
	return svc, repo, store, pool
}

// OtherService returns a second service (another process, as it were) on
// the database of pool, with its own event store and game cache.
func OtherService(t testing.TB, pool *pgxpool.Pool) *play.Service {
	t.Helper()
	return play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: NewStore(t, pool),
		Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: []byte(Secret),
		Seeds: Seeds(t.Name() + "/other service")})
}

// NewStore returns the PostgreSQL event store on pool, closed when the
// test ends.
func NewStore(t testing.TB, pool *pgxpool.Pool) events.Store {
	t.Helper()
	s := evpg.New(pool)
	t.Cleanup(s.Close)
	return s
}

// Create creates a test game of n players (Ann, Bob, ...) to a target of
// 25.
func Create(t testing.TB, svc *play.Service, n int) *play.CreatedGame {
	t.Helper()
	return CreateWith(t, svc, n, `{"target":25}`)
}

// CreateWith is Create with the test game's options (JSON).
func CreateWith(t testing.TB, svc *play.Service, n int, options string) *play.CreatedGame {
	t.Helper()
	names := []string{"Ann", "Bob", "Cid", "Dee", "Eve"}
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: testgame.Name, Options: json.RawMessage(options)}
	for i := range n {
		req.Players = append(req.Players, play.NewPlayer{Name: names[i], Email: names[i] + "@example.org"})
	}
	c, err := svc.Create(context.Background(), req)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	return c
}

// CreateLords creates a Lords of Scotland game of n players (Ann, Bob,
// Cid, Dee) and returns its id.
func CreateLords(t testing.TB, svc *play.Service, n int) string {
	t.Helper()
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name}
	for _, name := range []string{"Ann", "Bob", "Cid", "Dee"}[:n] {
		req.Players = append(req.Players, play.NewPlayer{Name: name, Email: strings.ToLower(name) + "@example.org"})
	}
	c, err := svc.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return c.ID
}

// MoveOf returns a legal move of view v, chosen by rng, as JSON.
func MoveOf(t testing.TB, v *play.View, rng *rand.Rand) play.PostedMove {
	t.Helper()
	mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
	if err != nil {
		t.Fatal(err)
	}
	return mv
}

// PlayRandom plays one legal move, chosen by rng, for the first seat game
// id awaits (its link's token made with secret), and returns the game as
// that seat sees it after the move; nil when the game awaits no seat.
func PlayRandom(t testing.TB, svc *play.Service, secret []byte, id string, rng *rand.Rand) *play.View {
	t.Helper()
	ctx := context.Background()
	sm, err := svc.Summary(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(sm.ToMove) == 0 {
		return nil
	}
	tok := tokens.Seat(secret, id, sm.ToMove[0], 0)
	v, err := svc.View(ctx, id, tok)
	if err != nil {
		t.Fatal(err)
	}
	after, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: MoveOf(t, v, rng)})
	if err != nil {
		t.Fatal(err)
	}
	return after
}

// UntilReversible plays the game's first listed moves until the seat to
// move has a legal move that can be taken back and that hands the turn to
// another seat. It returns that seat, its token (from Secret) and the
// move.
func UntilReversible(t testing.TB, svc *play.Service, id string) (int, string, json.RawMessage) {
	t.Helper()
	ctx := context.Background()
	for range 300 {
		sm, err := svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if sm.Status != projections.StatusActive {
			t.Fatal("the game ended before a reversible move")
		}
		seat := sm.ToMove[0]
		tok := tokens.Seat([]byte(Secret), id, seat, 0)
		sp, err := svc.SeatPage(ctx, id, tok)
		if err != nil {
			t.Fatal(err)
		}
		v := sp.View
		if len(sp.Takeback.Final) != len(v.LegalMoves) {
			t.Fatalf("%d Final flags for %d legal moves", len(sp.Takeback.Final), len(v.LegalMoves))
		}
		pick := -1
		for i, final := range sp.Takeback.Final {
			if !final {
				pick = i
				break
			}
		}
		mv, err := json.Marshal(v.LegalMoves[max(pick, 0)])
		if err != nil {
			t.Fatal(err)
		}
		if pick >= 0 {
			return seat, tok, mv
		}
		if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no reversible move in 300 moves")
	return 0, "", nil
}
