package bagpipes

import (
	"math/rand/v2"
	"testing"
)

// TestForcedOnlyInPublic plays random games (fixed seeds) and checks that
// a step with one legal move is forced (State.Forced) exactly when the
// table can tell: the badge or token with one receiver, and a pass or an
// end of turn by a seat with no card in hand (and none of the phase on
// its table). The same pass by a seat whose hand holds cards it cannot
// play now is asked as usual: playing it at once would tell the others
// that hand's contents by the timing. Both kinds must be met.
func TestForcedOnlyInPublic(t *testing.T) {
	forced, asked := map[string]int{}, map[string]int{}
	for g := range 300 {
		st, err := Game{}.New(setupFor(g))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(g), 43))
		for n := 0; st.Result() == nil && n < 2000; n++ {
			s := st.(*state)
			tm := st.ToMove()
			seat := tm[r.IntN(len(tm))]
			legal := s.legal(seat)
			f := st.Forced(seat)
			switch {
			case f != nil && len(legal) != 1:
				t.Fatalf("game %d move %d: seat %d has %d legal moves and a forced move", g, n, seat, len(legal))
			case f != nil:
				forced[s.Phase+"/"+legal[0].Type]++
			case len(legal) == 1:
				if s.Phase != phActions && s.Phase != phBefore && s.Phase != phAwardCards || len(s.P[seat].Hand) == 0 && len(s.P[seat].Table) == 0 {
					t.Fatalf("game %d move %d: seat %d's only move %s (phase %s, hand %d) is not forced", g, n, seat, legal[0].Type, s.Phase, len(s.P[seat].Hand))
				}
				asked[s.Phase+"/"+legal[0].Type]++
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
	for _, k := range []string{phBadge + "/" + MovePassBadge, phBefore + "/" + MovePass, phActions + "/" + MoveEndTurn} {
		if forced[k] == 0 {
			t.Errorf("no forced %s met: %v", k, forced)
		}
	}
	if asked[phBefore+"/"+MovePass] == 0 {
		t.Errorf("no pass asked of a seat with cards in hand: %v", asked)
	}
	t.Logf("forced: %v; asked (hidden hand): %v", forced, asked)
}
