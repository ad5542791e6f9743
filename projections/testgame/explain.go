package testgame

import (
	"fmt"

	"pbem/engine"
)

// Speak implements engine.State: this test game speaks English only and
// names no player.
func (s *State) Speak(string, []string) engine.State { return s.Clone() }

// Explain implements engine.State: how far the seat's total is from the
// target (public), in English whatever the language, like the rest of
// this test game.
func (s *State) Explain(seat int, _ string) []engine.Explanation {
	if s.Over || seat < 0 || seat >= len(s.Totals) {
		return nil
	}
	return []engine.Explanation{{Kind: "target", Text: fmt.Sprintf("You have %d of %d; playing a card adds its value.", s.Totals[seat], s.Target)}}
}
