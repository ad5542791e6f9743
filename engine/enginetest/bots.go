package enginetest

import (
	"bytes"
	"fmt"
	"testing"

	"pbem/engine"
)

// checkBots asks the easy and normal bots of g for seat's move, from the
// seat's view and the log redacted for it, and checks that each answer is
// one of the listed moves.
func checkBots(g engine.Game, s engine.State, seat int, legal []engine.Move, log []engine.Event, seed engine.Seed) error {
	history := engine.Redacted(g, log, seat)
	listed := make([][]byte, len(legal))
	for i, m := range legal {
		listed[i] = mustJSON(m)
	}
	for _, level := range []engine.BotLevel{engine.BotEasy, engine.BotNormal} {
		mv, err := g.ChooseBot(level, s.View(seat), history, seed.BotKey(), len(log)+1)
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

// MarkerOptions configures CheckBotIgnoresMarker.
type MarkerOptions struct {
	// Games is the number of games played; game i has 2 + i%3 seats.
	Games int
	// StrongEvery asks the strong bot too at every StrongEvery-th decision
	// (the normal bot is asked at each).
	StrongEvery int
	// MinCompared fails the check when fewer decisions were compared.
	MinCompared int
	// Plant returns a copy of st where a hidden card of a seat other than
	// seat is changed (chosen by k), or false when there is none.
	Plant func(st engine.State, seat, k int) (engine.State, bool)
}

// CheckBotIgnoresMarker plays games of g with its normal bot and, at each
// decision with a choice, checks that a card planted in another seat's
// hidden holdings changes none of the bot's choices: a bot decides from
// its seat's view and redacted history alone.
func CheckBotIgnoresMarker(t *testing.T, g engine.Game, o MarkerOptions) {
	t.Helper()
	compared := 0
	for game := range o.Games {
		seed := engine.Seed{byte(game), 0x4d}
		s, err := g.New(engine.Setup{Players: 2 + game%3, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var hist []engine.Event
		for decision := 0; s.Result() == nil; decision++ {
			seat := s.ToMove()[0]
			red := engine.Redacted(g, hist, seat)
			version := len(hist) + 1
			if len(s.Legal(seat)) > 1 {
				levels := []engine.BotLevel{engine.BotNormal}
				if decision%o.StrongEvery == 0 {
					levels = append(levels, engine.BotStrong)
				}
				for _, level := range levels {
					planted, ok := o.Plant(s, seat, decision)
					if !ok {
						continue
					}
					want, err := g.ChooseBot(level, s.View(seat), red, seed.BotKey(), version)
					if err != nil {
						t.Fatal(err)
					}
					got, err := g.ChooseBot(level, planted.View(seat), red, seed.BotKey(), version)
					if err != nil {
						t.Fatal(err)
					}
					if w, gt := mustJSON(want), mustJSON(got); !bytes.Equal(w, gt) {
						t.Fatalf("game %d decision %d (%s): %s without the marker, %s with it", game, decision, level, w, gt)
					}
					compared++
				}
			}
			m, err := g.ChooseBot(engine.BotNormal, s.View(seat), red, seed.BotKey(), version)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := s.Decide(seat, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				s.Apply(e)
			}
			hist = append(hist, evs...)
		}
	}
	if compared < o.MinCompared {
		t.Fatalf("only %d decisions compared", compared)
	}
	t.Logf("%d decisions compared", compared)
}
