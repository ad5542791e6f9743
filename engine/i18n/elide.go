package i18n

import (
	"regexp"
	"strings"
)

// mark brackets each substituted string in a French message so that
// elideFrench sees where a substitution starts; U+2063 (invisible
// separator) never occurs in pbem's texts or in names (names are cleaned
// of format characters before they are stored).
const mark = "\u2063"

// markArgs wraps string arguments in marks.
func markArgs(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case string:
			out[i] = mark + v + mark
		case interface{ String() string }:
			out[i] = mark + v.String() + mark
		default:
			out[i] = a
		}
	}
	return out
}

// elidable matches a French word that elides before a vowel, followed by
// a substituted string starting with a vowel or an h (treated as mute, as
// for most first names: "d'Hélène").
var elidable = regexp.MustCompile(`(?i)\b(de|que|le|la|je|ne|se|lorsque|puisque|jusque) ` + mark + `([aeiouyhàâäéèêëîïôöùûüœæ])`)

// elideFrench applies the elisions at substitution points and removes the
// marks.
func elideFrench(s string) string {
	if !strings.Contains(s, mark) {
		return s
	}
	s = elidable.ReplaceAllStringFunc(s, func(m string) string {
		word, rest, _ := strings.Cut(m, " ")
		elided := word[:len(word)-1] // de → d, que → qu, la → l
		return elided + "'" + rest
	})
	return strings.ReplaceAll(s, mark, "")
}
