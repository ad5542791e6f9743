package projections

import (
	"bytes"
	"encoding/json"
	"testing"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
)

// TestMarshalStateSameBytes: marshalState writes the same bytes as
// json.Marshal for the engines' states along a played game.
func TestMarshalStateSameBytes(t *testing.T) {
	t.Parallel()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []engine.Game{lg, bagpipes.Game{}} {
		st, err := g.New(engine.Setup{Players: 2, Seed: engine.Seed{7}, Names: []string{"Ann <&>", "Bob"}, Language: "fr"})
		if err != nil {
			t.Fatal(err)
		}
		played := 0
		for i := 0; i < 60 && st.Result() == nil; i++ {
			want, err := json.Marshal(st)
			if err != nil {
				t.Fatal(err)
			}
			got, err := MarshalState(st)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s move %d: marshalState differs from json.Marshal:\n%s\n%s", g.Name(), i, got, want)
			}
			to := st.ToMove()
			if len(to) == 0 {
				break
			}
			legal := st.Legal(to[0])
			if len(legal) == 0 {
				break
			}
			evs, err := st.Decide(to[0], legal[i%len(legal)])
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				st.Apply(e)
			}
			played++
		}
		if played < 20 {
			t.Fatalf("%s: only %d moves played", g.Name(), played)
		}
	}
}
