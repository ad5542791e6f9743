package i18n

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// euphonyRule is the rule addEuphonicD implements, written as a regular
// expression: "a" or "e" standing alone (after no letter, digit or _),
// one space, a mark, a vowel.
var euphonyRule = regexp.MustCompile(`(^|[^\p{L}\p{N}_])([aeAE]) ` + mark + `([aeiouàáâäèéêëìíîïòóôöùúûüAEIOUÀÁÂÄÈÉÊËÌÍÎÏÒÓÔÖÙÚÛÜ])`)

// euphonyByRule is addEuphonicD by the regular expression (applied
// twice: its matches may overlap by the character before the word).
func euphonyByRule(s string) string {
	for range 2 {
		s = euphonyRule.ReplaceAllString(s, "${1}${2}d "+mark+"${3}")
	}
	return strings.ReplaceAll(s, mark, "")
}

// TestEuphonyFollowsTheRule compares addEuphonicD with the rule over
// random texts made of the pieces that matter: "a" and "e" in both cases,
// words that end like them, spaces, marks, vowels accented or not, h.
func TestEuphonyFollowsTheRule(t *testing.T) {
	pieces := []string{"a", "A", "e", "E", "casa", "tre", "1a", "_e", "già", "è", " ", " ", " ", mark, mark, mark,
		"Élodie", "Amélie", "Hans", "Ugo", "Giulia", "Ìsola", "3 unità", "x", "é", "É", "h", ",", "'", "(", "«"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		in := b.String()
		if got, want := addEuphonicD(in), euphonyByRule(in); got != want {
			t.Fatalf("addEuphonicD(%q) = %q, the rule gives %q", in, got, want)
		}
	}
}

// TestItalianEuphonicD: an Italian message's "a" and "e" before a
// substituted name take a d when the name starts with a vowel (accented
// too, in either case), not before a consonant or an h, and not where the
// "a" ends a substituted string; other languages are left alone. A user
// trial read "Tocca a Amélie".
func TestItalianEuphonicD(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, lang := range Languages {
		fsys["x/"+lang+".json"] = &fstest.MapFile{Data: []byte(`{
  "turn": "Tocca a %s, non a te.",
  "tie": "%[1]s e %[2]s hanno entrambi %[3]d.",
  "pair": "%s %s",
  "left": {"arg": 2, "one": "A %[1]s resta %[2]d ora", "other": "A %[1]s restano %[2]d ore"}
}`)}
	}
	c, err := Load(fsys, "x", "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key  string
		args []any
		want string
	}{
		{"turn", []any{"Amélie"}, "Tocca ad Amélie, non a te."},
		{"turn", []any{"Élodie"}, "Tocca ad Élodie, non a te."},
		{"turn", []any{"ugo"}, "Tocca ad ugo, non a te."},
		{"turn", []any{"Giulia"}, "Tocca a Giulia, non a te."},
		{"turn", []any{"Hans"}, "Tocca a Hans, non a te."},
		{"turn", []any{"3 unità"}, "Tocca a 3 unità, non a te."},
		{"tie", []any{"Anna", "Elena", 7}, "Anna ed Elena hanno entrambi 7."},
		{"tie", []any{"Élodie", "Òscar", 7}, "Élodie ed Òscar hanno entrambi 7."},
		{"tie", []any{"Ivo", "Bruno", 7}, "Ivo e Bruno hanno entrambi 7."},
		{"pair", []any{"fino a", "Anna"}, "fino a Anna"},
		{"left", []any{"Irene", 2}, "Ad Irene restano 2 ore"},
		{"left", []any{"Bob", 1}, "A Bob resta 1 ora"},
	} {
		if got := c.T("it", tc.key, tc.args...); got != tc.want {
			t.Errorf("T(it, %s, %q) = %q, want %q", tc.key, tc.args, got, tc.want)
		}
		if got := c.T("fr", tc.key, tc.args...); strings.Contains(got, "ad ") || strings.Contains(got, "ed ") || strings.Contains(got, mark) {
			t.Errorf("T(fr, %s, %q) = %q: an Italian d outside Italian", tc.key, tc.args, got)
		}
	}
}

func BenchmarkAddEuphonicD(b *testing.B) {
	s := mark + "Ugo" + mark + " passa la medaglia d'onore a " + mark + "Élodie" + mark + " e " + mark + "Anna" + mark
	for range b.N {
		_ = addEuphonicD(s)
	}
}
