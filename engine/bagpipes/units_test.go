package bagpipes

import (
	"errors"
	"slices"
	"testing"

	"pbem/engine"
)

// TestUnitPlaysDoSomething (ruling 4): a card's variable unit effect is
// offered with N units or fewer, with none only where the card still does
// something for its player, each move's label saying what it does with
// its units; Decide refuses what Legal does not offer, with the range in
// the error. A user trial met "Forced March with 0 units" among the moves,
// and a rematch listed seven Treaty with Eric II moves that read alike.
func TestUnitPlaysDoSomething(t *testing.T) {
	s := newState(t, 4, `{}`, 1)
	card := func(id string) int {
		t.Helper()
		c, ok := s.Set.bagByID[id]
		if !ok {
			t.Fatalf("no %s in the default set", id)
		}
		return c
	}
	offered := func(seat int) (map[string][]int, []string) {
		units, labels := map[string][]int{}, []string(nil)
		for _, m := range s.legal(seat) {
			if m.Type == MovePlay {
				units[m.Card] = append(units[m.Card], m.Units)
				labels = append(labels, m.Label())
			}
		}
		return units, labels
	}
	refuses := func(seat int, m Move, msg string) {
		t.Helper()
		var re *engine.RuleError
		if _, err := s.Decide(seat, m); !errors.As(err, &re) || re.Code != engine.CodeIllegalMove || re.Message != msg {
			t.Errorf("%s with %d units: %v, want illegal_move %q", m.Card, m.Units, err, msg)
		}
	}

	// The actions phase, seat 0 to play, an empty castle.
	s.Phase, s.Turn, s.Replenished = phActions, 0, true
	s.P[0].Gold, s.P[0].Castle = 5, 0
	s.P[0].Hand = []int{card("treaty-with-eric-ii"), card("kinsmen"), card("vive-la-france"), card("mercenary-captain")}
	s.P[0].Fresh = 0
	units, labels := offered(0)
	for id, want := range map[string][]int{
		"treaty-with-eric-ii": {6, 5, 4, 3, 2, 1}, // no unit would only cost 2 gold
		"kinsmen":             {2, 1},             // no unit would only spend the card
		"vive-la-france":      {1, 0},             // no castle unit still adds 3 units to Scotland's camp
		"mercenary-captain":   {4, 3, 2, 1},
	} {
		if !slices.Equal(units[id], want) {
			t.Errorf("%s is offered with %v units, want %v", id, units[id], want)
		}
	}
	for _, want := range []string{
		"Play Treaty with Eric II: You lose 2 gold. You add 6 units to your castle.",
		"Play Treaty with Eric II: You lose 2 gold. You add 1 unit to your castle.",
		"Play Vive la France!: Add 3 units to Scotland's camp. You add 0 units to your castle.",
	} {
		if !slices.Contains(labels, want) {
			t.Errorf("no move reads %q among %q", want, labels)
		}
	}
	if c := slices.Clone(labels); len(slices.Compact(slices.Sorted(slices.Values(c)))) != len(labels) {
		t.Errorf("two moves read alike: %q", labels)
	}
	refuses(0, Move{Type: MovePlay, Card: "treaty-with-eric-ii", Units: 0, To: -1, Target: -1}, "Treaty with Eric II: choose 1 to 6 units")
	refuses(0, Move{Type: MovePlay, Card: "kinsmen", Units: 3, To: -1, Target: -1}, "Kinsmen: choose 1 to 2 units")

	// Before the reveal, an empty castle: Forced March moves nothing and is
	// not offered; Cold Feet takes back 1 or 2 of the camp's 2 units.
	s.Phase, s.Turn = phBefore, 0
	s.P[0].Camp = 2
	s.P[0].Hand = []int{card("forced-march"), card("cold-feet")}
	units, _ = offered(0)
	if _, ok := units["forced-march"]; ok || !slices.Equal(units["cold-feet"], []int{2, 1}) {
		t.Errorf("before the reveal with an empty castle: %v", units)
	}
	refuses(0, Move{Type: MovePlay, Card: "forced-march", Units: 0, To: -1, Target: -1}, "Forced March: you have no unit it could move")
}
