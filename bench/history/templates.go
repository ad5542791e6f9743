package main

import (
	"context"
	"fmt"
	"math/rand/v2"

	"pbem/bench/internal/playout"
	"pbem/events/play"
)

// templateSet are the games played through the service, to be copied.
type templateSet struct {
	finished, active []string // game ids
	events           int
}

// kinds are the games played, four players each.
var kinds = []string{"lords-of-scotland", "swords-and-bagpipes"}

// playTemplates plays n finished games and n games left in progress (after
// 1 to 30 moves) of each kind.
func playTemplates(ctx context.Context, svc *play.Service, n int) (*templateSet, error) {
	rng := rand.New(rand.NewPCG(18, 4))
	t := &templateSet{}
	for _, kind := range kinds {
		for range n {
			id, err := playout.Create(ctx, svc, kind, 4)
			if err != nil {
				return nil, err
			}
			moves, _, err := playout.Play(ctx, svc, secret, id, rng, -1)
			if err != nil {
				return nil, err
			}
			t.finished = append(t.finished, id)
			t.events += moves + 1
		}
		for len(t.active) < n*(1+indexOf(kind)) {
			id, err := playout.Create(ctx, svc, kind, 4)
			if err != nil {
				return nil, err
			}
			moves, over, err := playout.Play(ctx, svc, secret, id, rng, 1+rng.IntN(30))
			if err != nil {
				return nil, err
			}
			t.events += moves + 1
			if !over {
				t.active = append(t.active, id)
			}
		}
	}
	if len(t.finished) == 0 {
		return nil, fmt.Errorf("no template game")
	}
	return t, nil
}

func indexOf(kind string) int {
	for i, k := range kinds {
		if k == kind {
			return i
		}
	}
	return -1
}
