// Package playout plays games through the game service as players would
// (random legal moves from each seat's view), for the benchmarks that need
// a database of real games: bench/storage and bench/history.
package playout

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections"
)

// names are the players' names, by seat.
var names = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"}

// Create starts a game of name with seats players (Ann, Bob, …, each with
// an example.org address) and returns its id.
func Create(ctx context.Context, svc *play.Service, name string, seats int) (string, error) {
	if seats < 1 || seats > len(names) {
		return "", fmt.Errorf("playout: %d seats: between 1 and %d", seats, len(names))
	}
	req := play.CreateGame{Game: name, Options: json.RawMessage(`{}`),
		Organiser: play.Organiser{Name: "Ann", Email: "Ann@example.org"}}
	for _, n := range names[:seats] {
		req.Players = append(req.Players, play.NewPlayer{Name: n, Email: n + "@example.org"})
	}
	c, err := svc.Create(ctx, req)
	if err != nil {
		return "", err
	}
	return c.ID, nil
}

// Play plays up to limit random legal moves of game id (limit < 0: to its
// end) and returns how many it played and whether the game is over. secret
// is the service's (it derives the seat tokens).
func Play(ctx context.Context, svc *play.Service, secret []byte, id string, rng *rand.Rand, limit int) (moves int, over bool, err error) {
	for ; limit < 0 || moves < limit; moves++ {
		if moves > 5000 {
			return moves, false, fmt.Errorf("playout: game %s does not end", id)
		}
		sm, err := svc.Summary(ctx, id)
		if err != nil {
			return moves, false, err
		}
		if sm.Status != projections.StatusActive {
			return moves, true, nil
		}
		tok := tokens.Seat(secret, id, sm.ToMove[rng.IntN(len(sm.ToMove))], 0)
		v, err := svc.View(ctx, id, tok)
		if err != nil {
			return moves, false, err
		}
		mv := v.LegalMoves[rng.IntN(len(v.LegalMoves))]
		if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: mv}); err != nil {
			return moves, false, err
		}
	}
	sm, err := svc.Summary(ctx, id)
	if err != nil {
		return moves, false, err
	}
	return moves, sm.Status != projections.StatusActive, nil
}
