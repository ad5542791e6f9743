package lords

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"pbem/engine"
)

// TestViewAppendJSONAsEncodingJSON: View.AppendJSON gives json.Marshal's
// bytes for every seat's view (the public one too) at every position of
// random games of 2 to 5 players, with and without Bruce, in every
// language, with names that encoding/json escapes (they reach the pending
// text and the result summary).
func TestViewAppendJSONAsEncodingJSON(t *testing.T) {
	g := newGame(t)
	r := rand.New(rand.NewPCG(7, 8))
	hostile := []string{`<b>Ann & "Bob"</b>`, "Élodie\u2028d'Arc", "bad \xff utf-8", "tab\there\\", "emoji 🎲"}
	views := 0
	for i := range 12 {
		su := randomSetup(i)
		if i%2 == 0 {
			su.Names = hostile[:min(su.Players, len(hostile))]
		}
		st, err := g.New(su)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		for {
			for seat := engine.Spectator; seat < s.N; seat++ {
				v := s.View(seat).(View)
				want, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				if got := v.AppendJSON(nil); !bytes.Equal(got, want) {
					t.Fatalf("game %d seat %d:\n got %s\nwant %s", i, seat, got, want)
				}
				views++
			}
			if s.Final != nil {
				break
			}
			randomStep(t, s, r)
		}
	}
	t.Logf("%d views compared", views)
}
