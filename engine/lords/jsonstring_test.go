package lords

import (
	"encoding/json"
	"testing"
)

// TestAppendJSONStringAsMarshal: appendJSONString writes what json.Marshal
// writes, for plain text, accents and every character it escapes.
func TestAppendJSONStringAsMarshal(t *testing.T) {
	for _, s := range []string{"", "Recruit Bruce 3 (slot 2)", "Réserver à « Élise »", "a\"b\\c", "<b>&amp;</b>",
		"tab\there\nnl\r\x00\x1f\x7f", "line\u2028sep\u2029", "bad \xff utf8", "emoji 🎲 ok"} {
		want, _ := json.Marshal(s)
		if got := string(appendJSONString([]byte("x"), s)); got != "x"+string(want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got[1:], want)
		}
	}
}

// FuzzAppendJSONString compares appendJSONString with json.Marshal.
func FuzzAppendJSONString(f *testing.F) {
	f.Add("Muster Stewart 5 face up")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
