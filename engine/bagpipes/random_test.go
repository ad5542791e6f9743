package bagpipes

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"pbem/engine"
	"pbem/engine/enginetest"
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
	return engine.Setup{Players: c.players, Options: json.RawMessage(c.options), Seed: seed}
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
	return nil
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
		Games: games, Setup: setup, Seed: 7, DeepEvery: 200,
		Invariant: invariant, CheckView: checkView, CheckRedacted: checkRedacted,
	})
	t.Logf("%d games (%d deep), %d moves, %d events, %d unlisted moves rejected, longest %d moves",
		st.Games, st.Deep, st.Moves, st.Events, st.Rejected, st.LongestGame)
}
