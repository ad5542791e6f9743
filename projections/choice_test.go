package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
)

// TestChoiceTagHashesTheListedJSON: a choice tag is the first 8 hex digits
// of SHA-256 over each legal move's encoding/json bytes and a newline, so
// that the tags of the emails already sent still match the lists they
// numbered, along played games of both engines (names with <, > and &,
// which encoding/json escapes, in French labels) and for no move at all.
func TestChoiceTagHashesTheListedJSON(t *testing.T) {
	t.Parallel()
	if got := ChoiceTag(nil); got != "e3b0c442" {
		t.Errorf("ChoiceTag(nil) = %s, want e3b0c442 (SHA-256 of no bytes)", got)
	}
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []engine.Game{lg, bagpipes.Game{}} {
		st, err := g.New(engine.Setup{Players: 3, Seed: engine.Seed{9}, Names: []string{"Ann <&>", "Bob", "Cid"}, Language: "fr"})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 80 && st.Result() == nil; i++ {
			seat := st.ToMove()[0]
			legal := st.Legal(seat)
			h := sha256.New()
			for _, m := range legal {
				b, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				h.Write(append(b, '\n'))
			}
			if want := hex.EncodeToString(h.Sum(nil))[:8]; ChoiceTag(legal) != want {
				t.Fatalf("%s move %d: ChoiceTag = %s, want %s", g.Name(), i, ChoiceTag(legal), want)
			}
			evs, err := st.Decide(seat, legal[i%len(legal)])
			if err != nil {
				t.Fatal(err)
			}
			st = st.Clone()
			for _, e := range evs {
				st.Apply(e)
			}
		}
	}
}
