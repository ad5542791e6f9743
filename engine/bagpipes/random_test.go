package bagpipes

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
	"pbem/engine/i18n"
)

// configs are the player counts and variants the random games cycle through.
var configs = []struct {
	players int
	options string
}{
	{2, `{}`}, {3, `{}`}, {3, `{"three_player":true}`}, {3, `{"together":true}`},
	{4, `{}`}, {4, `{"long_game":true}`}, {4, `{"precise_daggers":true}`},
	{5, `{}`}, {5, `{"stay_home":true}`}, {5, `{"stay_home":true,"long_game":true}`},
	{6, `{}`}, {6, `{"long_game":true,"together":true}`}, {2, `{"together":true}`},
}

func setupFor(i int) engine.Setup {
	c := configs[i%len(configs)]
	var seed engine.Seed
	for k := range 8 {
		seed[k] = byte(i >> (8 * k))
	}
	seed[31] = 0xb9
	// Languages and names cycle too, shifted every 200 games so that the
	// deep games (every 200th) meet them all.
	k := i + i/200
	su := engine.Setup{Players: c.players, Options: json.RawMessage(c.options), Seed: seed,
		Language: [...]string{"en", "fr", "it", ""}[k%4]}
	if k%3 != 0 { // two games in three with names, one without
		su.Names = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"}[:c.players]
	}
	return su
}

// invariant checks that nothing is negative and every card is somewhere.
func invariant(st engine.State) error {
	s := st.(*state)
	bag := len(s.Bag) + len(s.BagOut) + len(s.BagBox)
	dag := len(s.Dag) + len(s.DagOut) + len(s.DagBox)
	for i, p := range s.P {
		if p.Gold < 0 || p.Castle < 0 || p.Camp < 0 || p.Virtual < 0 || p.Fresh < 0 || p.Fresh > len(p.Hand) {
			return fmt.Errorf("seat %d has negative holdings: %+v", i, p)
		}
		bag += len(p.Hand) + len(p.Table)
		dag += len(p.Daggers) + len(p.DagHand) + len(p.Spent)
		if p.Prepared >= 0 {
			dag++
		}
	}
	wantBag := len(s.Set.Bagpipes)
	if bag != wantBag || dag != len(s.Set.Daggers) {
		return fmt.Errorf("cards not conserved: %d bagpipe of %d, %d dagger of %d", bag, wantBag, dag, len(s.Set.Daggers))
	}
	if s.ScotCamp < 0 || s.Defeats < 0 || s.Defeats > s.DefeatLimit {
		return fmt.Errorf("bad table: scotland camp %d, defeats %d", s.ScotCamp, s.Defeats)
	}
	return nil
}

// checkView fails if a view shows another seat's secrets.
func checkView(st engine.State, seat int, raw []byte) error {
	s := st.(*state)
	var v View
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	over := s.Res != nil
	for i, p := range v.Players {
		if i == seat {
			continue
		}
		if !over && s.N > 2 && (p.Daggers != nil || p.DaggerTotal != nil) {
			return fmt.Errorf("seat %d's daggers shown", i)
		}
		if !over && p.OfferDaggers != nil || p.Offered != 0 {
			return fmt.Errorf("seat %d's dagger hand or offer shown", i)
		}
		if p.Side != "" && !s.Revealed && !s.bound(i) {
			return fmt.Errorf("seat %d's hidden choice shown", i)
		}
	}
	want := 0
	if seat >= 0 {
		want = len(s.P[seat].Hand)
	}
	if len(v.Hand) != want {
		return fmt.Errorf("hand of %d cards shown, want %d", len(v.Hand), want)
	}
	lang := i18n.Norm(s.Lang)
	for _, c := range v.Hand {
		if c.Text != s.Set.texts[lang][s.Set.bagByID[c.ID]] {
			return fmt.Errorf("card %s's text %q is not in the game's language %q", c.ID, c.Text, s.Lang)
		}
	}
	return checkLabels(s, seat, raw)
}

// checkLabels fails if the labels of the view's legal moves are not the
// state's own, in its language, or name a card or dagger seat cannot know.
func checkLabels(s *state, seat int, raw []byte) error {
	var v struct {
		Moves []struct {
			Type   string `json:"type"`
			Card   string `json:"card"`
			Dagger int    `json:"dagger"`
			Label  string `json:"label"`
		} `json:"legal_moves"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	legal := s.legal(seat)
	if len(v.Moves) != len(legal) || (len(legal) > 0 && !s.awaits(seat)) {
		return fmt.Errorf("view of seat %d lists %d moves, the state %d", seat, len(v.Moves), len(legal))
	}
	// Cards whose names seat may read: its hand, and every table.
	known := map[string]bool{}
	if seat >= 0 {
		for _, c := range s.P[seat].Hand {
			known[s.Set.Bagpipes[c].Name] = true
		}
	}
	for i := range s.P {
		for _, c := range s.P[i].Table {
			known[s.Set.Bagpipes[c].Name] = true
		}
	}
	en := &labeling{set: s.Set, names: s.Names}
	for k, m := range v.Moves {
		l := m.Label
		if l == "" || l != legal[k].Label() || strings.Contains(l, "%!") {
			return fmt.Errorf("move %d of seat %d: label %q, the state's %q", k, seat, l, legal[k].Label())
		}
		if s.Lang == "fr" || s.Lang == "it" {
			if l == en.label(legal[k]) && m.Type != MoveKeepBadge {
				return fmt.Errorf("label %q of a %s game is in English", l, s.Lang)
			}
		}
		if m.Type == MovePlay {
			c, ok := s.Set.bagByID[m.Card]
			if !ok || !known[s.Set.Bagpipes[c].Name] {
				return fmt.Errorf("seat %d may play card %q it does not hold", seat, m.Card)
			}
		}
		if m.Dagger > 0 && !slices.ContainsFunc(s.P[seat].DagHand, func(d int) bool { return s.Set.Daggers[d].Daggers == m.Dagger }) {
			return fmt.Errorf("seat %d offers a %d-dagger card it does not hold", seat, m.Dagger)
		}
		for i := range s.P {
			for _, c := range s.P[i].Hand {
				if name := s.Set.Bagpipes[c].Name; !known[name] && !knownContains(known, name) && strings.Contains(l, name) {
					return fmt.Errorf("label %q of seat %d names %q, in seat %d's hand", l, seat, name, i)
				}
			}
		}
	}
	return nil
}

// knownContains tells whether a known card's name contains name (a hidden
// card's name may be part of a known one's).
func knownContains(known map[string]bool, name string) bool {
	for k := range known {
		if strings.Contains(k, name) {
			return true
		}
	}
	return false
}

// checkRedacted fails if an event shows another seat's secrets.
func checkRedacted(_, _ engine.State, seat int, e engine.Event, raw []byte) error {
	d, err := decodeEvent(e.EventType(), raw)
	if err != nil {
		return err
	}
	var draws []Draw
	switch d := d.(type) {
	case ChoiceMade:
		if d.Seat != seat && (d.Side != "" || d.Dagger != "" || d.Daggers != 0) {
			return fmt.Errorf("choice of seat %d shown", d.Seat)
		}
	case CardPlayed:
		draws = d.Draws
	case Awards:
		draws = d.Draws
	}
	for _, dr := range draws {
		if dr.Seat != seat && (dr.Card != "" || dr.Daggers != 0 || dr.Virtual) {
			return fmt.Errorf("card of seat %d shown", dr.Seat)
		}
	}
	return nil
}

func TestRandomGames(t *testing.T) {
	games := 10000
	if testing.Short() {
		games = 1000
	}
	cards, err := os.ReadFile("testdata/cards-test.json")
	if err != nil {
		t.Fatal(err)
	}
	custom := json.RawMessage(`{"cards":` + string(cards) + `}`)
	setup := func(i int) engine.Setup {
		su := setupFor(i)
		if i%7 == 3 { // every seventh game with a custom card set
			su.Options = custom
		}
		return su
	}
	st := enginetest.RandomGames(t, Game{}, enginetest.Options{
		Games: games, Setup: setup, Seed: 7, DeepEvery: 200, Bots: true,
		Workers:   runtime.GOMAXPROCS(0),
		Invariant: invariant, CheckView: checkView, CheckRedacted: checkRedacted,
		Plant: func(st engine.State, seat, k int) (engine.State, bool) {
			return plantSecrets(st.(*state), seat, k)
		},
	})
	t.Logf("%d games (%d deep), %d moves, %d events, %d unlisted moves rejected, longest %d moves, explanations %v",
		st.Games, st.Deep, st.Moves, st.Events, st.Rejected, st.LongestGame, st.Explained)
	// The deep games meet these kinds; the rarer ones are pinned by
	// explain_test.go.
	if st.Forced == 0 {
		t.Error("the deep games met no forced step (the badge with one receiver, a pass with no card)")
	}
	for _, kind := range []string{ExplainShield, ExplainCampTotal, ExplainBattle, ExplainDeserter, ExplainBadgeBack} {
		if st.Explained[kind] == 0 {
			t.Errorf("no %s explanation checked: %v", kind, st.Explained)
		}
	}
}
