package lords

import (
	"math/rand/v2"
	"testing"
)

// TestForcedIsEveryOnlyMove plays random games (fixed seeds) and checks
// that in Lords of Scotland every step with one legal move is forced
// (State.Forced gives that move): the table can always count the moves
// of such a step (see Forced). These games meet a power with one target.
func TestForcedIsEveryOnlyMove(t *testing.T) {
	g := newGame(t)
	met := map[string]int{}
	for i := range 300 {
		st, err := g.New(randomSetup(i))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i), 43))
		for n := 0; st.Result() == nil && n < 2000; n++ {
			tm := st.ToMove()
			seat := tm[r.IntN(len(tm))]
			legal := st.Legal(seat)
			f := st.Forced(seat)
			if (f != nil) != (len(legal) == 1) {
				t.Fatalf("game %d move %d: seat %d has %d legal moves and forced move %v", i, n, seat, len(legal), f)
			}
			if f != nil {
				met[string(f.(*Move).Type)]++
			}
			evs, err := st.Decide(seat, legal[r.IntN(len(legal))])
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				st.Apply(e)
			}
		}
	}
	if met[string(MoveTarget)] == 0 {
		t.Fatalf("no forced target met: %v", met)
	}
	t.Logf("forced steps met: %v", met)
}
