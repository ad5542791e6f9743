package bagpipes

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
)

func newState(t *testing.T, players int, opts string, seed byte) *state {
	t.Helper()
	st, err := Game{}.New(engine.Setup{Players: players, Options: json.RawMessage(opts), Seed: engine.Seed{seed}})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*state)
}

func TestSetupArmyDeck(t *testing.T) {
	for seed := range byte(30) {
		s := newState(t, 4, `{}`, seed)
		deck := append(slices.Clone(s.ArmyDeck), s.Army)
		if len(deck) != 7 || deck[0] >= len(s.Set.KingEdward) {
			t.Fatalf("army deck %v: want a King Edward under six army cards", deck)
		}
		for _, c := range deck[1:] {
			if c < len(s.Set.KingEdward) {
				t.Fatalf("army deck %v has a second King Edward", deck)
			}
		}
		for i, p := range s.P {
			if p.Gold < 3 || p.Castle != 3 || len(p.Hand) != 1 { // Irvine Capitulation gives gold at once
				t.Fatalf("seat %d starts with %+v", i, p)
			}
		}
	}
}

func TestThreePlayerVariantLeavesOutBadgeCards(t *testing.T) {
	for seed := range byte(30) {
		s := newState(t, 3, `{"three_player":true}`, seed)
		for _, c := range append(slices.Clone(s.ArmyDeck), s.Army) {
			if MentionsBadge(s.Set.armies[c].Effects) {
				t.Fatalf("army card %s mentions the badge", s.Set.armies[c].ID)
			}
		}
		all := slices.Clone(s.Bag)
		for _, p := range s.P {
			all = append(all, p.Hand...)
		}
		for _, c := range all {
			if MentionsBadge(s.Set.Bagpipes[c].Effects) {
				t.Fatalf("bagpipe card %s mentions the badge", s.Set.Bagpipes[c].ID)
			}
		}
	}
}

func TestTwoPlayerArmyDeck(t *testing.T) {
	s := newState(t, 2, `{}`, 1)
	for _, c := range append(slices.Clone(s.ArmyDeck), s.Army) {
		if id := s.Set.armies[c].ID; id == "irvine-capitulation" || id == "bruce-join-us-again" {
			t.Fatalf("2-player army deck holds %s", id)
		}
	}
}

func TestPreciseDaggers(t *testing.T) {
	for seed := range byte(30) {
		s := newState(t, 4, `{"precise_daggers":true}`, seed)
		values := func(cards []int) []int {
			var v []int
			for _, c := range cards {
				v = append(v, s.Set.Daggers[c].Daggers)
			}
			slices.Sort(v)
			return v
		}
		n := len(s.Dag)
		top, next := values(s.Dag[n-5:]), values(s.Dag[n-10:n-5])
		if !slices.Equal(top, []int{1, 2, 2, 3, 3}) || !slices.Equal(next, []int{1, 2, 2, 3, 3}) {
			t.Fatalf("precise deck: top %v, next %v", top, next)
		}
	}
}

func TestDefaultCardSet(t *testing.T) {
	cs := DefaultCards()
	if len(cs.KingEdward) != 2 || len(cs.EnglishArmy) != 8 || len(cs.Daggers) != 16 || len(cs.Bagpipes) != 22 {
		t.Fatalf("default set: %d/%d/%d/%d cards", len(cs.KingEdward), len(cs.EnglishArmy), len(cs.Daggers), len(cs.Bagpipes))
	}
	count := map[int]int{}
	for _, d := range cs.Daggers {
		count[d.Daggers]++
	}
	if count[1] != 4 || count[2] != 8 || count[3] != 4 {
		t.Fatalf("dagger deck %v, want 4x1 8x2 4x3", count)
	}
	names := map[string]bool{}
	for _, c := range cs.Bagpipes {
		names[c.Name] = true
	}
	for _, c := range cs.armies {
		names[c.Name] = true
	}
	for _, n := range []string{"Bruce's Trick", "Wallace's Gratitude", "Lamberton's Help", "Bruces vs Comyns", "The Guardians",
		"David's Lineage", "Vive la France!", "Treaty with Eric II", "Balliol's Plan", "Pope's Influence",
		"Irvine Capitulation", "Bruce Join Us Again!"} {
		if !names[n] {
			t.Errorf("no card named %q", n)
		}
	}
	// Every symbol of the rulebook appears: units, gold gained and lost,
	// raise militia, the three phases, x2 and the badge of honour.
	kinds, phases, x2, badgeArmy, badgeBag := map[string]bool{}, map[string]bool{}, false, 0, 0
	for _, c := range cs.Bagpipes {
		phases[c.Phase] = true
		x2 = x2 || c.X2
		for _, e := range c.Effects {
			kinds[e.Kind] = true
		}
		if MentionsBadge(c.Effects) {
			badgeBag++
		}
	}
	for _, c := range cs.EnglishArmy {
		if MentionsBadge(c.Effects) {
			badgeArmy++
		}
	}
	for _, k := range []string{KindGold, KindLoseGold, KindCampUnits, KindCastleUnits, KindMilitia, KindRelocate} {
		if !kinds[k] {
			t.Errorf("no bagpipe card uses %s", k)
		}
	}
	if len(phases) != 3 || !x2 || badgeBag == 0 || badgeArmy != 1 {
		t.Errorf("phases %v, x2 %v, badge bagpipe cards %d, badge army cards %d (want exactly 1)", phases, x2, badgeBag, badgeArmy)
	}
}

func TestCustomCardErrorsNameCardAndField(t *testing.T) {
	base, err := os.ReadFile("testdata/cards-test.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6}`, `"shield": -1, "scotland_won": 3, "england_won": 1, "crown": 6}`, `"k1": shield`},
		{`"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6}`, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "shield_by_choosers": {"6": 9}}`, `"k1": shield_by_choosers: key "6"`},
		{`"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6}`, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "shield_by_choosers": {"02": 9}}`, `"k1": shield_by_choosers: key "02"`},
		{`"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6}`, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "shield_by_choosers": {"3": 100}}`, `"k1": shield_by_choosers: "3": 100`},
		{`{"id": "d2a", "daggers": 2}`, `{"id": "d2a", "daggers": 4}`, `"d2a": daggers`},
		{`"phase": "awards", "effects": [{"kind": "bagpipe"`, `"phase": "dinner", "effects": [{"kind": "bagpipe"`, `"piper": phase`},
		{`{"kind": "discard_dagger", "amount": 1}`, `{"kind": "discard_dagger", "amount": 0}`, `"pope": effects[0].amount`},
		{`{"kind": "lose_gold", "amount": 2, "who": "target"}`, `{"kind": "lose_gold", "amount": 2, "who": "scots"}`, `"ransom": effects[0].who`},
		{`{"kind": "switch"}`, `{"kind": "teleport"}`, `"trick": effects[0].kind`},
		{`{"id": "tax6"`, `{"id": "tax5"`, `"tax5": id`},
		{`"name": "Tax", "phase": "actions", "effects": [{"kind": "gold", "amount": 1}]}
  ]`, `"name": "Tax", "phase": "actions", "effects": [{"kind": "gold", "amount": 1}], "color": "red"}
  ]`, `unknown field "color"`},
	} {
		bad := strings.Replace(string(base), tc.from, tc.to, 1)
		if bad == string(base) {
			t.Fatalf("test case %q does not apply", tc.from)
		}
		_, err := Game{}.New(engine.Setup{Players: 4, Options: json.RawMessage(`{"cards":` + bad + `}`)})
		re, ok := err.(*engine.RuleError)
		if !ok || re.Code != engine.CodeBadOptions || !strings.Contains(re.Message, tc.want) {
			t.Errorf("%s: got %v, want bad_options naming %s", tc.to, err, tc.want)
		}
	}
}

func TestCustomCardsTravelInState(t *testing.T) {
	cards, err := os.ReadFile("testdata/cards-test.json")
	if err != nil {
		t.Fatal(err)
	}
	s := newState(t, 4, `{"cards":`+string(cards)+`}`, 3)
	raw, _ := json.Marshal(s)
	d, err := Game{}.DecodeState(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.(*state).Set.Bagpipes[0].ID; got != "twice" {
		t.Fatalf("decoded state plays with card %q, want the custom set", got)
	}
	plain, _ := json.Marshal(newState(t, 4, `{}`, 3))
	if strings.Contains(string(plain), "custom_cards") {
		t.Fatal("a default game repeats the card set in its state")
	}
}
