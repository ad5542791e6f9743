package i18n

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// mark brackets each substituted string in a French or Italian message
// so that elideFrench and addEuphonicD see where a substitution starts; U+2063 (invisible
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

// elidingWords are the French words that elide before a vowel or a mute
// h ("de" → "d'"), lower-case.
var elidingWords = []string{"de", "que", "le", "la", "je", "ne", "se", "lorsque", "puisque", "jusque"}

// elides reports whether a substituted string starting with s makes the
// word before it elide: it starts with a vowel or an h (treated as mute,
// as for most first names: "d'Hélène"), in either case.
func elides(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return strings.ContainsRune("aeiouyhàâäéèêëîïôöùûüœæ", unicode.ToLower(r))
}

// elidedWord returns before less its last word and the space after it,
// and that word, when before ends with one of elidingWords (in any case)
// standing alone (the start, or no ASCII letter, digit or _ before it)
// and a single space.
func elidedWord(before string) (rest, word string, ok bool) {
	head, found := strings.CutSuffix(before, " ")
	if !found {
		return "", "", false
	}
	for _, w := range elidingWords {
		if len(head) < len(w) || !strings.EqualFold(head[len(head)-len(w):], w) {
			continue
		}
		rest = head[:len(head)-len(w)]
		if rest != "" && isWordByte(rest[len(rest)-1]) {
			continue
		}
		return rest, head[len(head)-len(w):], true
	}
	return "", "", false
}

// isWordByte is an ASCII word character, as regexp's \b sees them.
func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// elideFrench applies the elisions at substitution points (a mark right
// after an eliding word and a space, right before a vowel or an h: "de
// ⁣Élodie" gives "d'Élodie") and removes the marks.
func elideFrench(s string) string {
	if !strings.Contains(s, mark) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		before, after, found := strings.Cut(s, mark)
		if !found {
			b.WriteString(s)
			return b.String()
		}
		if elides(after) {
			if rest, word, ok := elidedWord(before); ok {
				before = rest + word[:len(word)-1] + "'"
			}
		}
		b.WriteString(before)
		s = after
	}
}
