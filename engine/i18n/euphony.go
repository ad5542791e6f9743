package i18n

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// italianVowels are the letters that make Italian "a" and "e" take their
// euphonic d ("ad Anna", "ed Élodie"), lower-case; an h does not ("a
// Hans").
const italianVowels = "aeiouàáâäèéêëìíîïòóôöùúûü"

// takesEuphonicD reports whether a substituted string starting with s
// makes an Italian "a" or "e" before it take a d: it starts with a vowel,
// in either case, accented or not.
func takesEuphonicD(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return strings.ContainsRune(italianVowels, unicode.ToLower(r))
}

// euphonicWord reports whether before ends with "a" or "e" (in either
// case) standing alone (the start, or no letter, digit or _ before it)
// and a single space: the word that takes the d.
func euphonicWord(before string) bool {
	head, found := strings.CutSuffix(before, " ")
	if !found || head == "" {
		return false
	}
	switch head[len(head)-1] {
	case 'a', 'e', 'A', 'E':
	default:
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(head[:len(head)-1])
	return r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

// addEuphonicD gives the Italian "a" and "e" before a substituted string
// that starts with a vowel their euphonic d (a mark right after the word
// and a space, right before the vowel: "Tocca a ⁣Amélie" gives "Tocca ad
// Amélie", "Anna e ⁣Elena" gives "Anna ed Elena"), and removes the marks.
// A "d" is added only where the catalog's text has the word: a word a
// substituted string ends with is the text of its own message.
func addEuphonicD(s string) string {
	if !strings.Contains(s, mark) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	for {
		before, after, found := strings.Cut(s, mark)
		if !found {
			b.WriteString(s)
			return b.String()
		}
		if takesEuphonicD(after) && euphonicWord(before) {
			b.WriteString(before[:len(before)-1])
			b.WriteString("d ")
		} else {
			b.WriteString(before)
		}
		s = after
	}
}
