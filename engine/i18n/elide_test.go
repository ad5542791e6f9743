package i18n

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// elisionRule is the rule elideFrench implements, written as a regular
// expression: an eliding word standing alone, one space, a mark, a vowel
// or an h.
var elisionRule = regexp.MustCompile(`(?i)\b(de|que|le|la|je|ne|se|lorsque|puisque|jusque) ` + mark + `([aeiouyhàâäéèêëîïôöùûüœæ])`)

// elideByRule is elideFrench by the regular expression.
func elideByRule(s string) string {
	s = elisionRule.ReplaceAllStringFunc(s, func(m string) string {
		word, rest, _ := strings.Cut(m, " ")
		return word[:len(word)-1] + "'" + rest
	})
	return strings.ReplaceAll(s, mark, "")
}

// TestElisionFollowsTheRule compares elideFrench with the rule over
// random texts made of the pieces that matter: eliding words in both
// cases, words that end like them, spaces, marks, vowels, h and accented
// capitals.
func TestElisionFollowsTheRule(t *testing.T) {
	pieces := []string{"de", "De", "DE", "que", "Que", "la", "Le", "je", "se", "ne", "lorsque", "jusque", "garde",
		"made", "1de", "_la", "àde", " ", " ", " ", mark, mark, mark, "Élodie", "Hugo", "Anne", "armée", "Bob",
		"x", "é", "É", "h", "Œuvre", "yeux", ",", "'", "(", "œ"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		in := b.String()
		if got, want := elideFrench(in), elideByRule(in); got != want {
			t.Fatalf("elideFrench(%q) = %q, the rule gives %q", in, got, want)
		}
	}
}

func BenchmarkElideFrench(b *testing.B) {
	s := mark + "Ugo" + mark + " défausse " + mark + "Scott 3" + mark + " de " + mark + "Élodie" + mark + " avec " + mark + "Wemyss 2" + mark
	for range b.N {
		_ = elideFrench(s)
	}
}
