package bots_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/play/bots"
	"pbem/events/tokens"
)

// gate is the real service as a bots.Player whose PlayBot waits until want
// decisions have begun: played one after the other, the first would wait
// for ever (the test fails when the gate's time runs out).
type gate struct {
	bots.Player
	want    int
	mu      sync.Mutex
	entered int
	all     chan struct{}
}

func (g *gate) PlayBot(ctx context.Context, id string, seat int) (bool, error) {
	g.mu.Lock()
	g.entered++
	if g.entered == g.want {
		close(g.all)
	}
	g.mu.Unlock()
	select {
	case <-g.all:
	case <-time.After(playLimit):
		return false, context.DeadlineExceeded
	}
	return g.Player.PlayBot(ctx, id, seat)
}

// TestWorkerPlaysClaimedSeatsAtOnce: the decisions a worker claims are
// played side by side, since each waits out the service's decision pause
// before it is appended.
func TestWorkerPlaysClaimedSeatsAtOnce(t *testing.T) {
	t.Parallel()
	e := newBotEnv(t, nil)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	const games = 3
	for range games {
		id := e.create(t, lords.Name, "", "normal")
		ann := map[int]string{0: tokens.Seat(botSecret, id, 0, 0)}
		// Ann plays until her bot is awaited.
		e.playPeople(t, id, ann, rng, playLimit, func() bool {
			sm, err := e.svc.Summary(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return slices.Contains(sm.ToMove, 1)
		})
	}
	g := &gate{Player: e.svc, want: games, all: make(chan struct{})}
	w := bots.NewWorker(e.pool, bots.Config{Player: g})
	n, err := w.RunOnce(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != games {
		t.Fatalf("played %d bot moves, want %d", n, games)
	}
}
