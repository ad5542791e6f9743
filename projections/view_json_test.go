package projections

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
)

// plainView has View's fields without its MarshalJSON: the reference
// encoding/json writes by reflection.
type plainView View

// TestMarshalViewSameBytes: marshalView and json.Marshal of a *View write
// what encoding/json writes by reflection, for both engines' views of
// every seat along played games, active and finished, with and without a
// deadline, names needing escapes.
func TestMarshalViewSameBytes(t *testing.T) {
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Date(2026, 3, 4, 5, 6, 7, 89, time.UTC)
	reused := 0
	for _, g := range []engine.Game{lg, bagpipes.Game{}} {
		for _, lang := range []string{"en", "fr", "it"} {
			st, err := g.New(engine.Setup{Players: 3, Seed: engine.Seed{9}, Names: []string{"Ann <&>", "Bob \"B\"", "Cé\u2028"}, Language: lang})
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 80; i++ {
				gm := &Game{ID: "g-1<", Status: StatusActive, Version: int64(i), ToMove: st.ToMove()}
				if i%2 == 0 {
					gm.DeadlineAt = &deadline
				}
				if i%7 == 3 {
					gm.Status = StatusFinished
				}
				for seat := engine.Spectator; seat < 3; seat++ {
					v := view(gm, st, seat)
					if lv, ok := v.State.(movesAppender); ok && gm.Status == StatusActive && len(v.LegalMoves) > 0 {
						reused++
						if !sameMoves(v.LegalMoves, lv.Moves()) {
							t.Fatalf("%s step %d seat %d: the view's moves are listed twice", g.Name(), i, seat)
						}
					}
					if gm.Status == StatusActive {
						a, _ := json.Marshal(v.LegalMoves)
						b, _ := json.Marshal(nonNil(st.Legal(seat)))
						if !bytes.Equal(a, b) {
							t.Fatalf("%s step %d seat %d: legal moves %s, State.Legal %s", g.Name(), i, seat, a, b)
						}
					}
					want, err := json.Marshal(plainView(*v))
					if err != nil {
						t.Fatal(err)
					}
					got, err := marshalView(v)
					if err != nil {
						t.Fatal(err)
					}
					via, err := json.Marshal(v)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) || !bytes.Equal(via, want) {
						t.Fatalf("%s %s step %d seat %d: differs from reflection:\n got %s\nwant %s", g.Name(), lang, i, seat, got, want)
					}
				}
				if st.Result() != nil {
					break
				}
				to := st.ToMove()
				legal := st.Legal(to[i%len(to)])
				evs, err := st.Decide(to[i%len(to)], legal[i%len(legal)])
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range evs {
					st.Apply(e)
				}
			}
		}
	}
	if reused == 0 {
		t.Fatal("no view reused its encoded moves")
	}
}

// TestMarshalViewNilFields: nil slices and a nil state write null, as
// encoding/json does.
func TestMarshalViewNilFields(t *testing.T) {
	for _, v := range []*View{{}, {LegalMoves: []engine.Move{}, ToMove: []int{}, State: map[string]int{"a": 1}}} {
		want, _ := json.Marshal(plainView(*v))
		got, err := marshalView(v)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("got %s, %v; want %s", got, err, want)
		}
	}
}
