package testgame

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
)

// TestConformance runs the conformance suite every engine passes
// (docs/adding-a-game.md, step 2) on the test game, so that the service's
// tests play a game that keeps the engine contract: determinism, JSON
// round trips, redaction, views, labels, round ends, results and bots.
func TestConformance(t *testing.T) {
	stats := enginetest.RandomGames(t, Game{}, enginetest.Options{
		Games: 300, Seed: 1, DeepEvery: 10, Bots: true,
		Setup: func(i int) engine.Setup {
			var seed engine.Seed
			seed[0], seed[1] = byte(i), byte(i>>8)
			su := engine.Setup{Players: 2 + i%4, Seed: seed}
			if i%4 >= 2 { // forced draws (State.Forced) in half the games
				su.Options = json.RawMessage(`{"forced":true}`)
			}
			return su
		},
		CheckView:     checkView,
		CheckRedacted: checkRedacted,
	})
	if stats.Games != 300 || stats.RoundEnds == 0 || stats.Forced == 0 {
		t.Errorf("played %+v", stats)
	}
}

// checkView fails when a seat's view holds a card of another seat's hand
// or of the deck.
func checkView(st engine.State, seat int, view []byte) error {
	s := st.(*State)
	var v struct {
		Hand []string `json:"hand"`
	}
	if err := json.Unmarshal(view, &v); err != nil {
		return err
	}
	for _, c := range v.Hand {
		if seat < 0 || !slices.Contains(s.Hands[seat], c) {
			return fmt.Errorf("seat %d is shown %s, which is not in its hand", seat, c)
		}
	}
	return nil
}

// checkRedacted fails when a drawn card reaches another seat.
func checkRedacted(_, _ engine.State, seat int, e engine.Event, redacted []byte) error {
	d, ok := e.(Drew)
	if !ok || d.Seat == seat {
		return nil
	}
	var r Drew
	if err := json.Unmarshal(redacted, &r); err != nil {
		return err
	}
	if r.Card != "" {
		return fmt.Errorf("seat %d sees seat %d draw %s", seat, d.Seat, r.Card)
	}
	return nil
}
