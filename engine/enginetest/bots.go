package enginetest

import (
	"bytes"
	"fmt"

	"pbem/engine"
)

// checkBots asks the easy and normal bots of g for seat's move, from the
// seat's view and the log redacted for it, and checks that each answer is
// one of the listed moves.
func checkBots(g engine.Game, s engine.State, seat int, legal []engine.Move, log []engine.Event, seed engine.Seed) error {
	history := make([]engine.Event, len(log))
	for i, e := range log {
		history[i] = g.Redact(e, seat)
	}
	listed := make([][]byte, len(legal))
	for i, m := range legal {
		listed[i] = mustJSON(m)
	}
	for _, level := range []engine.BotLevel{engine.BotEasy, engine.BotNormal} {
		mv, err := g.ChooseBot(level, s.View(seat), history, seed, len(log)+1)
		if err != nil {
			return fmt.Errorf("%s bot of seat %d: %v", level, seat, err)
		}
		got := mustJSON(mv)
		found := false
		for _, l := range listed {
			found = found || bytes.Equal(l, got)
		}
		if !found {
			return fmt.Errorf("%s bot of seat %d chose %s, which is not listed", level, seat, got)
		}
	}
	return nil
}
