package bagpipes

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
)

// newState deals a game; "@NAME" in opts stands for the card set
// testdata/cards-NAME.json.
func newState(t *testing.T, players int, opts string, seed byte) *state {
	t.Helper()
	if m := cardFileRef.FindStringSubmatch(opts); m != nil {
		cards, err := os.ReadFile("testdata/cards-" + m[1] + ".json")
		if err != nil {
			t.Fatal(err)
		}
		opts = strings.Replace(opts, m[0], string(cards), 1)
	}
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

// TestCustomCardErrorsNameCardAndField checks that every refusal of a card
// set, at the JSON level (a wrong type, an unknown field) as well as by
// the rules' limits, names the card by list, index and name, and the
// field, in the game's language.
func TestCustomCardErrorsNameCardAndField(t *testing.T) {
	base, err := os.ReadFile("testdata/cards-test.json")
	if err != nil {
		t.Fatal(err)
	}
	const k1 = `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6}`
	for _, tc := range []struct{ lang, from, to, want string }{
		{"", k1, `"shield": -1, "scotland_won": 3, "england_won": 1, "crown": 6}`, `cards: king_edward[0] "King One", field shield: -1 is not in 0..99`},
		{"", k1, `"shield": "ten", "scotland_won": 3, "england_won": 1, "crown": 6}`, `cards: king_edward[0] "King One", field shield: must be a whole number`},
		{"", k1, `"shield": 10.5, "scotland_won": 3, "england_won": 1, "crown": 6}`, `king_edward[0] "King One", field shield: must be a whole number`},
		{"", k1, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "shield_by_choosers": {"6": 9}}`, `king_edward[0] "King One", field shield_by_choosers: key "6"`},
		{"", k1, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "shield_by_choosers": {"02": 9}}`, `king_edward[0] "King One", field shield_by_choosers: key "02"`},
		{"", k1, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "shield_by_choosers": {"3": 100}}`, `king_edward[0] "King One", field shield_by_choosers.3: 100 is not in 0..99`},
		{"", k1, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "shield_by_choosers": {"3": "x"}}`, `king_edward[0] "King One", field shield_by_choosers: must be an object of whole numbers`},
		{"", k1, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "generous": "yes"}`, `king_edward[0] "King One", field generous: must be true or false`},
		{"", k1, `"shield": 10, "scotland_won": 3, "england_won": 1, "crown": 6, "shields": 3}`, `king_edward[0] "King One", field shields: unknown field`},
		{"", `{"id": "d2a", "daggers": 2}`, `{"id": "d2a", "daggers": 4}`, `cards: daggers[4] "d2a", field daggers: 4 is not 1, 2 or 3`},
		{"", `{"id": "d2a", "daggers": 2}`, `{"id": "d2a", "daggers": [2]}`, `cards: daggers[4] "d2a", field daggers: must be a whole number`},
		{"", `"phase": "awards", "effects": [{"kind": "bagpipe"`, `"phase": "dinner", "effects": [{"kind": "bagpipe"`, `bagpipes[3] "Piper", field phase: "dinner" is not`},
		{"", `"phase": "awards", "effects": [{"kind": "bagpipe"`, `"phase": 3, "effects": [{"kind": "bagpipe"`, `bagpipes[3] "Piper", field phase: must be a string`},
		{"", `{"kind": "discard_dagger", "amount": 1}`, `{"kind": "discard_dagger", "amount": 0}`, `bagpipes[6] "Pope", field effects[0].amount: 0 is not in 1..20`},
		{"", `{"kind": "discard_dagger", "amount": 1}`, `{"kind": "discard_dagger", "amount": "1"}`, `bagpipes[6] "Pope", field effects[0].amount: must be a whole number`},
		{"", `{"kind": "discard_dagger", "amount": 1}`, `{"kind": "discard_dagger", "amount": 1, "when": "now"}`, `bagpipes[6] "Pope", field effects[0].when: unknown field`},
		{"", `{"kind": "discard_dagger", "amount": 1}`, `7`, `bagpipes[6] "Pope", field effects[0]: must be an object`},
		{"", `{"kind": "lose_gold", "amount": 2, "who": "target"}`, `{"kind": "lose_gold", "amount": 2, "who": "scots"}`, `bagpipes[7] "Ransom", field effects[0].who: "scots" only on an awards card`},
		{"", `{"kind": "switch"}`, `{"kind": "teleport"}`, `bagpipes[5] "Trick", field effects[0].kind: unknown value "teleport"`},
		{"", `{"id": "tax6"`, `{"id": "tax5"`, `field id: "tax5" is the id of another card too`},
		{"", `"name": "Tax", "phase": "actions", "effects": [{"kind": "gold", "amount": 1}]}
  ]`, `"name": "Tax", "phase": "actions", "effects": [{"kind": "gold", "amount": 1}], "color": "red"}
  ]`, `field color: unknown field`},
		{"", `"bagpipes": [`, `"bagpipe": [], "bagpipes": [`, `cards: field bagpipe: unknown field`},
		{"", `"daggers": [`, `"daggers": 16, "x": [`, `cards: daggers: must be a list of cards`},
		{"fr", k1, `"shield": "ten", "scotland_won": 3, "england_won": 1, "crown": 6}`, `cards : king_edward[0] « King One », champ shield : doit être un nombre entier`},
		{"fr", `{"kind": "discard_dagger", "amount": 1}`, `{"kind": "discard_dagger", "amount": 1, "when": "now"}`, `bagpipes[6] « Pope », champ effects[0].when : champ inconnu`},
		{"it", k1, `"shield": 100, "scotland_won": 3, "england_won": 1, "crown": 6}`, `cards: king_edward[0] «King One», campo shield: 100 non è tra 0 e 99`},
		{"it", `{"kind": "discard_dagger", "amount": 1}`, `{"kind": "discard_dagger", "amount": 1, "when": "now"}`, `bagpipes[6] «Pope», campo effects[0].when: campo sconosciuto`},
	} {
		bad := strings.Replace(string(base), tc.from, tc.to, 1)
		if bad == string(base) {
			t.Fatalf("test case %q does not apply", tc.from)
		}
		_, err := Game{}.New(engine.Setup{Players: 4, Language: tc.lang, Options: json.RawMessage(`{"cards":` + bad + `}`)})
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
