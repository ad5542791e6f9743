package engine

import (
	"encoding/json"
	"testing"
)

// wireMove is what MoveJSON replaces: a struct marshalled by encoding/json.
type wireMove struct {
	Type   string `json:"type"`
	Card   int    `json:"card"`
	FaceUp bool   `json:"face_up"`
	Side   string `json:"side"`
	Label  string `json:"label"`
}

// appended is a move whose MarshalJSON uses MoveJSON.
type appended wireMove

func (m appended) MarshalJSON() ([]byte, error) {
	return NewMoveJSON(m.Type).Int("card", m.Card).Bool("face_up", m.FaceUp).String("side", m.Side).Label(m.Label), nil
}

// TestMoveJSONAsEncodingJSON: a move written by MoveJSON and passed
// through encoding/json (as in a view) is byte for byte what encoding/json
// writes for the same fields, whatever the strings hold.
func TestMoveJSONAsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "Muster Cockburn 2 face-up", `say "hi" \ there`, "<b>&amp;</b>", "Élodie d'Arc ★",
		"tab\tnew\nline\x01", "line\u2028sep\u2029", "bad \xff utf-8", "emoji 🎲"} {
		w := wireMove{Type: "muster", Card: 15, FaceUp: true, Side: s, Label: s}
		want, err := json.Marshal([]any{w})
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal([]any{appended(w)})
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if string(got) != string(want) {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want)
		}
	}
}

// asMove makes a Move of a Marshaler.
type asMove struct{ json.Marshaler }

func (asMove) Label() string { return "" }
func (asMove) About() About  { return About{} }

// plainMove is a move without a MarshalJSON method.
type plainMove struct {
	Type string `json:"type"`
	Text string `json:"label"`
}

func (m plainMove) Label() string { return m.Text }
func (plainMove) About() About    { return About{} }

// TestMarshalMoveAsEncodingJSON: MarshalMove gives json.Marshal's bytes,
// whether it skips encoding/json or not.
func TestMarshalMoveAsEncodingJSON(t *testing.T) {
	var nilMove *appendedPtr
	moves := []Move{nilMove, plainMove{"x", "<&>"}, plainMove{"y", "plain"}}
	for _, s := range []string{"", "Muster Cockburn 2 face-up", `say "hi" \ there`, "<b>&amp;</b>", "Élodie d'Arc ★",
		"tab\tnew\nline\x01", "line\u2028sep", "sep\u2029", "\u2027 \u202a", "bad \xff utf-8", "cut \xe2\x80", "emoji 🎲"} {
		moves = append(moves, asMove{appended{Type: "muster", Card: 15, Side: s, Label: s}}, &appendedPtr{Text: s})
	}
	for _, m := range moves {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := MarshalMove(m)
		if err != nil || string(got) != string(want) {
			t.Errorf("%#v:\n got %s (%v)\nwant %s", m, got, err, want)
		}
	}
}

// appendedPtr is a move whose MarshalJSON has a pointer receiver, as
// Lords of Scotland's has.
type appendedPtr struct{ Text string }

func (m *appendedPtr) MarshalJSON() ([]byte, error) {
	return NewMoveJSON("claim").Int("card", 3).Label(m.Text), nil
}

func (m *appendedPtr) Label() string { return m.Text }
func (*appendedPtr) About() About    { return About{} }

// BenchmarkMoveJSON compares a move's encoding by MoveJSON with
// encoding/json's of a struct, both inside a list as in a view.
func BenchmarkMoveJSON(b *testing.B) {
	w := wireMove{Type: "muster", Card: 15, FaceUp: true, Side: "scotland", Label: "Muster Cockburn 2 face-up"}
	b.Run("struct", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(w); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MoveJSON", func(b *testing.B) {
		for b.Loop() {
			if _, err := appended(w).MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
