package lords

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pbem/engine"
)

// reflectView has View's fields without its MarshalJSON: encoding/json
// writes it by reflection, the reference the hand-written encoder matches.
type reflectView View

func reflectJSON(t testing.TB, v View) []byte {
	t.Helper()
	want, err := json.Marshal(reflectView(v))
	if err != nil {
		t.Fatal(err)
	}
	return want
}

// sameViewJSON checks that MarshalJSON, json.Marshal of the view and the
// reflective encoding write the same bytes.
func sameViewJSON(t testing.TB, v View) {
	t.Helper()
	want := reflectJSON(t, v)
	got, err := v.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("MarshalJSON differs from reflection:\n got %s\nwant %s", got, want)
	}
	via, err := json.Marshal(any(v))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(via, want) {
		t.Fatalf("json.Marshal differs from reflection:\n got %s\nwant %s", via, want)
	}
}

// TestViewJSONAsReflection plays random games in every language and
// compares every seat's (and the spectator's) view at every step.
func TestViewJSONAsReflection(t *testing.T) {
	g := newGame(t)
	games := 30
	if testing.Short() {
		games = 12
	}
	views := 0
	for i := range games {
		su := randomSetup(i)
		if i%5 == 4 {
			// Names that need escaping reach labels and pending texts.
			su.Names = []string{`A"n<n>`, "B\\o&b", "C\u2028id\x01", "Dé \xff", "E\tve"}[:su.Players]
		}
		st, err := g.New(su)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(i), 7))
		for step := 0; step < 400; step++ {
			for seat := engine.Spectator; seat < su.Players; seat++ {
				sameViewJSON(t, st.View(seat).(View))
				views++
			}
			if st.Result() != nil {
				break
			}
			tm := st.ToMove()
			seat := tm[r.IntN(len(tm))]
			legal := st.Legal(seat)
			evs, err := st.Decide(seat, legal[r.IntN(len(legal))])
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				st.Apply(e)
			}
		}
	}
	t.Logf("%d views compared", views)
}

// TestViewJSONEdgeCases: nil slices, empty cards, strings needing escapes,
// a pending card, a result and a foreign move.
func TestViewJSONEdgeCases(t *testing.T) {
	sameViewJSON(t, View{})
	card := CardView{Rank: 3, Clan: `<"x">`, Strength: 2, Power: "é\u2029&"}
	sameViewJSON(t, View{
		Game: "a&b", Phase: Phase("p\"h"), ToMove: []int{}, Hand: []CardView{{}, {Hidden: true}, card},
		Seats: []SeatView{{Army: []FollowerView{{}, {CardView: card, FaceUp: true, Active: "<a>", Kept: true},
			{CardView: CardView{Hidden: true}}}, Claimed: []CardView{}}, {}},
		Recruits:   []RecruitView{{Empty: true}, {CardView: CardView{Hidden: true}}, {CardView: card, FaceUp: true}},
		Supporters: []CardView{}, Discard: []CardView{card}, MacDonnell: []CarriedView{{Seat: 1, Card: card}},
		LastRound:  []ScoreView{{Seat: 1, Cards: []CardView{card}, Doubled: true, Place: 2}, {}},
		Pending:    &PendingView{Seat: 1, Kind: "k", Card: &card, Text: "t\n"},
		LegalMoves: []engine.Move{&Move{Type: MoveRecruit, Slot: 1}, foreignMove{}},
		Result:     &engine.Result{Ranking: []engine.Standing{{Seat: 1, Place: 1, Score: 4}}, Summary: "x<y"},
	})
	sameViewJSON(t, View{Pending: &PendingView{}, LegalMoves: []engine.Move{}})
}

type foreignMove struct{ N int }

func (foreignMove) Label() string { return "<foreign>" }

// FuzzViewJSON compares the encoders over fuzzed strings and numbers.
func FuzzViewJSON(f *testing.F) {
	f.Add("Stewart", "power & <text>", "Ann", 3, true)
	f.Fuzz(func(t *testing.T, clan, power, text string, n int, flag bool) {
		card := CardView{Rank: n, Clan: clan, Strength: -n, Power: power, Hidden: flag}
		sameViewJSON(t, View{
			Game: text, Seat: n, Phase: Phase(clan), ToMove: []int{n, -n}, Hand: []CardView{card},
			Seats:    []SeatView{{Army: []FollowerView{{CardView: card, FaceUp: flag, Active: text, Kept: !flag}}}},
			Recruits: []RecruitView{{CardView: card, FaceUp: !flag, Empty: flag}},
			Pending:  &PendingView{Kind: power, Text: text, Card: &card},
			LegalMoves: []engine.Move{&Move{Type: MoveTarget, Seat: n, Index: 1},
				&Move{Type: MoveMuster, Card: n, FaceUp: flag}},
		})
	})
}

// BenchmarkViewJSON encodes a mid-game view of a 4-player game, by hand
// and by reflection.
func BenchmarkViewJSON(b *testing.B) {
	g := newGame(b)
	st, err := g.New(engine.Setup{Players: 4, Seed: seedOf(3), Language: "fr", Names: []string{"A", "B", "C", "D"}})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 40 && st.Result() == nil; i++ {
		seat := st.ToMove()[0]
		evs, err := st.Decide(seat, st.Legal(seat)[i%len(st.Legal(seat))])
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range evs {
			st.Apply(e)
		}
	}
	v := st.View(st.ToMove()[0]).(View)
	b.Run("append", func(b *testing.B) {
		for b.Loop() {
			if _, err := v.MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reflect", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(reflectView(v)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// plainJSON says true exactly when json.Marshal writes the string as it
// is: every byte alone, and texts of the game's languages.
func TestPlainJSONAgreesWithMarshal(t *testing.T) {
	cases := []string{"", "Ann", "Seigneur d'Écosse", "a<b", "x&y", "q\"", "back\\", "tab\t", "\u2028", "é\u2029",
		"\xff", "caf\xc3", "Ó Dónaill", "日本"}
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "ab"+string([]byte{byte(c)})+"cd")
	}
	for _, s := range cases {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := string(b) == `"`+s+`"`; plainJSON(s) != want {
			t.Errorf("plainJSON(%q) = %v, json.Marshal gives %s", s, !want, b)
		}
	}
}
