package play

import (
	"testing"

	"pbem/projections/testgame"
)

// TestLeadsToForced: a move after which the next seat's step is forced
// (the test game's forced draw of an empty hand) is one the play page
// asks to confirm, since it cannot be taken back; the same move when
// that seat still holds a card is not.
func TestLeadsToForced(t *testing.T) {
	for _, c := range []struct {
		bob  []string
		want bool
	}{{nil, true}, {[]string{"c5"}, false}} {
		st := &testgame.State{Target: 1000, Rounds: 6, Round: 1, ForcedDraw: true, Hands: [][]string{{"c1", "c2"}, c.bob},
			Deck: []string{"c9", "c10"}, Totals: []int{0, 0}}
		evs, err := st.Decide(0, testgame.Move{Kind: "play", Card: "c1"})
		if err != nil {
			t.Fatal(err)
		}
		if got := leadsToForced(st, evs); got != c.want {
			t.Errorf("Bob's hand %v: leadsToForced = %v, want %v", c.bob, got, c.want)
		}
		if len(st.Hands[0]) != 2 {
			t.Fatalf("leadsToForced changed the state: %v", st.Hands)
		}
	}
}
