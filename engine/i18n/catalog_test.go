package i18n

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func good(t *testing.T) *Catalog {
	t.Helper()
	c, err := Load(os.DirFS("testdata"), "good", "good")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPlurals is the plural table: CLDR's rules per language, not "n == 1".
func TestPlurals(t *testing.T) {
	c := good(t)
	for _, tc := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 0, "0 cards"}, {"en", 1, "1 card"}, {"en", 2, "2 cards"},
		{"fr", 0, "0 carte"}, {"fr", 1, "1 carte"}, {"fr", 2, "2 cartes"},
		{"it", 0, "0 carte"}, {"it", 1, "1 carta"}, {"it", 2, "2 carte"},
		{"de", 1, "1 card"}, // an unknown language is English
	} {
		if got := c.T(tc.lang, "cards", tc.n); got != tc.want {
			t.Errorf("%s %d: %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct {
		lang string
		n    int
		want string
	}{
		{"en", 0, "no cards"}, {"en", 1, "one card"}, {"en", 5, "5 cards"},
		{"fr", 0, "aucune carte"}, {"fr", 1, "une carte"},
		{"it", 0, "nessuna carta"}, {"it", 3, "3 carte"},
	} {
		if got := c.T(tc.lang, "none", tc.n); got != tc.want {
			t.Errorf("%s %d: %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
	if got := c.T("it", "hours", "Bob", 1); got != "A Bob resta 1 ora" {
		t.Errorf("counted second argument: %q", got)
	}
	if got := c.T("en", "hours", "Bob", 3); got != "Bob has 3 hours left" {
		t.Errorf("counted second argument: %q", got)
	}
	if got := c.In("fr").T("played", "Élodie", "Scott 9"); got != "Élodie a joué Scott 9" {
		t.Errorf("positional arguments: %q", got)
	}
}

// TestElision is the French elision table: at substitution points only.
func TestElision(t *testing.T) {
	c := good(t)
	for name, want := range map[string]string{
		"Élodie": "En attente d'Élodie.",
		"Alice":  "En attente d'Alice.",
		"Hugo":   "En attente d'Hugo.",
		"Yves":   "En attente d'Yves.",
		"Bob":    "En attente de Bob.",
		"":       "En attente de .",
	} {
		if got := c.T("fr", "waiting", name); got != want {
			t.Errorf("%q: %q, want %q", name, got, want)
		}
	}
	if got := c.T("it", "waiting", "Anna"); got != "In attesa di Anna." {
		t.Errorf("Italian is not elided: %q", got)
	}
	if got := c.T("fr", "waiting", "Élodie"); strings.Contains(got, mark) {
		t.Errorf("a mark is left: %q", got)
	}
	for in, want := range map[string]string{
		"que " + mark + "Anne" + mark + " joue": "qu'Anne joue",
		"De " + mark + "Ernest" + mark:          "D'Ernest",
		"la " + mark + "armée" + mark:           "l'armée",
		"garde " + mark + "Anne" + mark:         "garde Anne",
	} {
		if got := elideFrench(in); got != want {
			t.Errorf("elideFrench(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCheckFindsEveryDisagreement: the bad catalog breaks each rule once.
func TestCheckFindsEveryDisagreement(t *testing.T) {
	c, err := Load(os.DirFS("testdata"), "bad", "bad")
	if err != nil {
		t.Fatal(err)
	}
	err = c.Check()
	if err == nil {
		t.Fatal("Check passed a bad catalog")
	}
	for _, want := range []string{
		`bad/fr: "only.en" is missing`,
		`bad/it: "only.it" is not in en`,
		`bad/fr: "waiting" uses arguments [], en uses [1]`,
		`bad/fr: "cards" must be written with plural forms`,
		`bad/fr: "colon" has an ordinary space in " :"`,
		`bad/fr: "apostrophe" writes the curly apostrophe`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Check missed %s\nin: %v", want, err)
		}
	}
}

func TestLoadRejectsMalformed(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"k": {"one": "x"}}`, `need "other"`},
		{`{"k": {"single": "x", "other": "y"}}`, "not a CLDR plural form"},
		{`{"k": {"arg": 0, "other": "y"}}`, "1-based"},
		{`{"k": 3}`, "a string or an object"},
	} {
		var e entry
		err := e.UnmarshalJSON([]byte(tc.json)[6 : len(tc.json)-1])
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.json, err, tc.want)
		}
	}
}

func TestArgs(t *testing.T) {
	for format, want := range map[string]string{
		"":              "[]",
		"100%% sure":    "[]",
		"%s and %d":     "[1 2]",
		"%[2]s then %s": "[2 3]",
		"%[2]s %[1]s":   "[1 2]",
		"%5.2f%%":       "[1]",
		"%-10s|%[3]d":   "[1 3]",
	} {
		if got := fmt.Sprint(entry{format: format}.args()); got != want {
			t.Errorf("%q: %s, want %s", format, got, want)
		}
	}
}

// TestLoadRefusesFormsTheLanguageLacks: x/text knows CLDR's forms.
func TestLoadRefusesFormsTheLanguageLacks(t *testing.T) {
	fsys := fstest.MapFS{
		"x/en.json": {Data: []byte(`{"k": {"one": "%d", "other": "%d"}}`)},
		"x/fr.json": {Data: []byte(`{"k": {"one": "%d", "other": "%d"}}`)},
		"x/it.json": {Data: []byte(`{"k": {"one": "%d", "few": "%d", "other": "%d"}}`)},
	}
	if _, err := Load(fsys, "x", "x"); err == nil || !strings.Contains(err.Error(), `"few" not supported for language "it"`) {
		t.Errorf("Load: %v", err)
	}
}

// TestPlainFormatsAsXText: the fmt path (plain) writes what x/text
// writes, and leaves to x/text the numbers it localizes and the
// arguments a message does not use.
func TestPlainFormatsAsXText(t *testing.T) {
	c := good(t)
	for _, tc := range []struct {
		lang  string
		args  []any
		want  string
		plain bool
	}{
		{"en", []any{7, "Ann"}, "Gold: 7, Ann", true},
		{"en", []any{999, "Ann", "extra"}, "Gold: 999, Ann", true},
		{"en", []any{1234, "Ann"}, "Gold: 1,234, Ann", false},
		{"fr", []any{12345, "Ann"}, "Or\u00a0: 12\u00a0345, Ann", false},
		{"it", []any{-3, "Ann"}, "Oro: -3, Ann", false},
	} {
		if got := c.T(tc.lang, "gold", tc.args...); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.lang, tc.args, got, tc.want)
		}
		args := tc.args
		if tc.lang == "fr" {
			args = markArgs(args)
		}
		if _, plain := c.plain(tc.lang, "gold", args); plain != tc.plain {
			t.Errorf("%s %v: formatted by fmt %v, want %v", tc.lang, tc.args, plain, tc.plain)
		}
	}
	if _, plain := c.plain("en", "cards", []any{2}); plain {
		t.Error("a message with plural forms went to fmt")
	}
}

// TestVariant: a key's variant when the catalog has one, else the key.
func TestVariant(t *testing.T) {
	c := good(t)
	if got := c.Variant("played", "formal"); got != "played.formal" {
		t.Errorf("Variant(played, formal) = %q", got)
	}
	if got := c.Variant("played", "lords-of-scotland"); got != "played" {
		t.Errorf("Variant(played, lords-of-scotland) = %q", got)
	}
}
