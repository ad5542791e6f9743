package bagpipes

import (
	"encoding/json"
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

// TestGamesBegunBeforeRuling4KeepTheirPlaysOfNoUnit: a game created under
// bagpipes-3, dealt again for its replay or audit (Setup.Rules), or read
// from a state written then (no unit_floor), still offers and plays a
// card with no unit, as it did when its events were written: its audit
// must find those plays among the legal decisions. A game of this version
// does not, and keeps that through its state.
func TestGamesBegunBeforeRuling4KeepTheirPlaysOfNoUnit(t *testing.T) {
	deal := func(rules string) *state {
		t.Helper()
		st, err := Game{}.New(engine.Setup{Players: 4, Seed: engine.Seed{1}, Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		s.Phase, s.Turn, s.Replenished = phActions, 0, true
		s.P[0].Gold, s.P[0].Castle = 5, 0
		s.P[0].Hand = []int{s.Set.bagByID["treaty-with-eric-ii"]}
		s.P[0].Fresh = 0
		return s
	}
	reread := func(s *state) *state {
		t.Helper()
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		st, err := Game{}.DecodeState(data)
		if err != nil {
			t.Fatal(err)
		}
		return st.(*state)
	}
	noUnit := Move{Type: MovePlay, Card: "treaty-with-eric-ii", Units: 0, To: -1, Target: -1}
	offersNoUnit := func(s *state) bool {
		return slices.ContainsFunc(s.legal(0), func(m Move) bool { return m.Type == MovePlay && m.Units == 0 })
	}
	for _, rules := range []string{"bagpipes-1", "bagpipes-2", "bagpipes-3"} {
		for _, s := range []*state{deal(rules), reread(deal(rules))} {
			if !offersNoUnit(s) {
				t.Errorf("%s: Treaty with Eric II is not offered with no unit", rules)
			}
			if _, err := s.Decide(0, noUnit); err != nil {
				t.Errorf("%s: Treaty with Eric II with no unit: %v", rules, err)
			}
		}
	}
	for _, rules := range []string{"", RulesVersion} {
		for _, s := range []*state{deal(rules), reread(deal(rules))} {
			if offersNoUnit(s) {
				t.Errorf("%q: Treaty with Eric II is offered with no unit", rules)
			}
			if _, err := s.Decide(0, noUnit); err == nil {
				t.Errorf("%q: Treaty with Eric II with no unit was played", rules)
			}
		}
	}
}
