package play

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/bagpipes"
)

// TestViewJSONAsEncodingJSON: View.JSON gives json.Marshal's bytes for
// views of every age of random Lords of Scotland games (whose engine view
// appends its own JSON), a Swords and Bagpipes view (encoding/json's),
// and views with a deadline, explanations and strings encoding/json
// escapes, posted moves, and nil lists.
func TestViewJSONAsEncodingJSON(t *testing.T) {
	t.Parallel()
	var views []*View
	for _, s := range lordsViewSamples(t, 2) {
		views = append(views, view(s.g, s.st, s.seat))
	}
	st, err := bagpipes.Game{}.New(engine.Setup{Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Date(2026, 11, 26, 14, 30, 5, 123456789, time.FixedZone("X", 3600))
	views = append(views,
		&View{GameID: "g1", Seat: 2, Version: 7, Status: "active", ToMove: []int{0}, LegalMoves: st.Legal(0), State: st.View(0),
			Deadline: &deadline, Explanations: []engine.Explanation{{Kind: "k<&>", Text: "a \"b\" \u2028 \xff é"}}, Language: "fr"},
		&View{GameID: "<g>", Seat: engine.Spectator, LegalMoves: []engine.Move{PostedMove(` {"type": "x", "label":"<&>"} `), nil}},
		&View{},
	)
	for i, v := range views {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := v.JSON()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("view %d: JSON gave (%v)\n%s\nencoding/json\n%s", i, err, got, want)
		}
	}
}
