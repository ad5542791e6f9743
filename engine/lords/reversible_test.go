package lords

import (
	"math/rand/v2"
	"testing"

	"pbem/engine"
)

// playMoves plays random whole games and calls seen with each move's
// events as Decide returned them and the engine's Reversible answer.
func playMoves(t *testing.T, g *Game, games int, seen func(mv *Move, evs []engine.Event, rev bool)) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	for i := range games {
		st, err := g.New(engine.Setup{Players: 2 + i%4, Seed: seedOf(uint64(1000 + i))})
		if err != nil {
			t.Fatal(err)
		}
		for st.Result() == nil {
			seat := st.ToMove()[0]
			legal := st.Legal(seat)
			mv := legal[r.IntN(len(legal))]
			evs, err := st.Decide(seat, mv)
			if err != nil {
				t.Fatal(err)
			}
			m := mv.(*Move)
			seen(m, evs, g.Reversible(evs))
			for _, e := range evs {
				st.Apply(e)
			}
		}
	}
}

// TestReversibleMoves checks the engine's answer on real moves of real
// games: a follower mustered face-down and nothing else can be taken back;
// a recruit that refills its place, a follower mustered face-up,
// Forsyth's draw, a move that turns the next recruit face-up, and a move
// that scores the round cannot.
func TestReversibleMoves(t *testing.T) {
	g := newGame(t)
	count := map[string]int{}
	playMoves(t, g, 40, func(mv *Move, evs []engine.Event, rev bool) {
		has := func(pred func(engine.Event) bool) bool {
			for _, e := range evs {
				if pred(e) {
					return true
				}
			}
			return false
		}
		switch {
		case mv.Type == MoveMuster && !mv.FaceUp && len(evs) == 1:
			count["face-down muster"]++
			if !rev {
				t.Errorf("a face-down muster alone (%+v) is not reversible", evs)
			}
		case mv.Type == MoveMuster && mv.FaceUp:
			count["face-up muster"]++
			if rev {
				t.Errorf("a face-up muster %+v is reversible", evs)
			}
		case mv.Type == MoveRecruit && has(func(e engine.Event) bool { r, ok := e.(Recruited); return ok && r.Replacement != 0 }):
			count["recruit"]++
			if rev {
				t.Errorf("a recruit that draws a replacement %+v is reversible", evs)
			}
		}
		if has(func(e engine.Event) bool { p, ok := e.(PowerUsed); return ok && p.Power == Forsyth }) {
			count["forsyth"]++
			if rev {
				t.Errorf("Forsyth's draw %+v is reversible", evs)
			}
		}
		if has(func(e engine.Event) bool { ts, ok := e.(TurnStarted); return ok && ts.Slot >= 0 }) {
			count["flip"]++
			if rev {
				t.Errorf("a move that turns a recruit face-up %+v is reversible", evs)
			}
		}
		if has(func(e engine.Event) bool { _, ok := e.(RoundScored); return ok }) {
			count["scoring"]++
			if rev {
				t.Errorf("a move that scores the round %+v is reversible", evs)
			}
		}
	})
	for _, k := range []string{"face-down muster", "face-up muster", "recruit", "forsyth", "flip", "scoring"} {
		if count[k] == 0 {
			t.Errorf("no %s met in the games: the test proves nothing about it", k)
		}
	}
	t.Logf("moves met: %v", count)
}

func TestReversibleEmpty(t *testing.T) {
	if newGame(t).Reversible(nil) {
		t.Fatal("an empty list of events is reversible")
	}
}
