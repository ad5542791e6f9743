package play_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"pbem/events"
	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/postgres"
)

// secret is the service secret of playtest's services: the seats' links
// are derived from it.
var secret = []byte(playtest.Secret)

// newService returns a service on a fresh database (playtest.NewService),
// with its repository and event store.
func newService(t *testing.T, now func() time.Time) (*play.Service, *postgres.Repo, events.Store) {
	t.Helper()
	svc, repo, store, _ := playtest.NewService(t, now)
	return svc, repo, store
}

func TestServicePlaysAGameToTheEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _ := newService(t, nil)
	c := playtest.Create(t, svc, 3)
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
		if _, err := svc.Move(ctx, c.ID, tok, play.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)}); err != nil {
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
