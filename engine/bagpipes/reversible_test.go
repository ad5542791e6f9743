package bagpipes

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"pbem/engine"
)

// TestReversibleMoves checks the engine's answer on real moves of random
// whole games: a replenishment, a relocation, the end of a turn and a
// face-down choice can be taken back; a bagpipe card played (turned
// face-up), a move that reveals the choices in the battle, and a move that
// starts a round (a new army card) cannot.
func TestReversibleMoves(t *testing.T) {
	g := Game{}
	r := rand.New(rand.NewPCG(3, 5))
	count := map[string]int{}
	for i := range 30 {
		var seed engine.Seed
		binary.LittleEndian.PutUint64(seed[:], uint64(i)+77)
		st, err := g.New(engine.Setup{Players: 2 + i%4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for st.Result() == nil {
			tm := st.ToMove()
			seat := tm[r.IntN(len(tm))]
			legal := st.Legal(seat)
			mv := legal[r.IntN(len(legal))].(Move)
			evs, err := st.Decide(seat, mv)
			if err != nil {
				t.Fatal(err)
			}
			rev := g.Reversible(evs)
			kinds := map[string]bool{}
			for _, e := range evs {
				kinds[e.EventType()] = true
			}
			alone := len(evs) == 1
			switch {
			case mv.Type == MoveReplenish && alone:
				count["replenish"]++
				if !rev {
					t.Errorf("a replenishment alone %+v is not reversible", evs)
				}
			case mv.Type == MoveRelocate && alone:
				count["relocate"]++
				if !rev {
					t.Errorf("a relocation alone %+v is not reversible", evs)
				}
			case mv.Type == MoveChoose && alone:
				count["choice"]++
				if !rev {
					t.Errorf("a face-down choice alone %+v is not reversible", evs)
				}
			case mv.Type == MovePlay:
				count["card played"]++
				if rev {
					t.Errorf("a bagpipe card played %+v is reversible", evs)
				}
			}
			if kinds[EvtBattle] {
				count["battle"]++
				if rev {
					t.Errorf("a move that reveals the choices %+v is reversible", evs)
				}
			}
			if kinds[EvtRoundStarted] {
				count["new round"]++
				if rev {
					t.Errorf("a move that turns up an army card %+v is reversible", evs)
				}
			}
			for _, e := range evs {
				st.Apply(e)
			}
		}
	}
	for _, k := range []string{"replenish", "relocate", "choice", "card played", "battle", "new round"} {
		if count[k] == 0 {
			t.Errorf("no %s met in the games: the test proves nothing about it", k)
		}
	}
	t.Logf("moves met: %v", count)
	if g.Reversible(nil) {
		t.Error("an empty list of events is reversible")
	}
}
