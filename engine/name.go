package engine

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"pbem/engine/i18n"
)

// PlainName reports whether s can be shown as a name: valid UTF-8, 1 to
// maxRunes characters, no control character (line breaks, tabs, escapes)
// and no bidirectional formatting character, which would reorder the text
// around it (U+202E shows "txt.exe" as "exe.txt") in pages and emails.
func PlainName(s string, maxRunes int) bool {
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxRunes {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) || isBidiControl(r) {
			return false
		}
	}
	return true
}

// isBidiControl reports whether r is one of Unicode's bidirectional
// formatting characters (UAX #9): the marks, embeddings, overrides and
// isolates.
func isBidiControl(r rune) bool {
	switch {
	case r == '\u061C', r == '\u200E', r == '\u200F':
		return true
	case r >= '\u202A' && r <= '\u202E':
		return true
	case r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// Speaking is how a State.Speak labels in lang for the names current: the
// language to keep ("" for English, the default), the names by seat (for
// players seats, the name current gives, the seat's holder now, or where
// it gives none the setup's; an empty current keeps setup) and whether
// both are the state's own already (own: its language, setup: its names),
// so that Speak may return the state itself.
func Speaking(own string, setup []string, lang string, current []string, players int) (string, []string, bool) {
	names := setup
	if len(current) > 0 {
		names = make([]string, players)
		for i := range names {
			switch {
			case i < len(current) && current[i] != "":
				names[i] = current[i]
			case i < len(setup):
				names[i] = setup[i]
			}
		}
	}
	l := i18n.Norm(lang)
	same := l == i18n.Norm(own) && slices.Equal(names, setup)
	if l == "en" {
		l = ""
	}
	return l, names, same
}
