package engine

import (
	"unicode"
	"unicode/utf8"
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

// SpokenNames is the names a State.Speak labels with: by seat, for players
// seats, the name current gives (the seat's holder now) or, where it gives
// none, the setup's. An empty current keeps setup as it is.
func SpokenNames(setup, current []string, players int) []string {
	if len(current) == 0 {
		return setup
	}
	out := make([]string, players)
	for i := range out {
		switch {
		case i < len(current) && current[i] != "":
			out[i] = current[i]
		case i < len(setup):
			out[i] = setup[i]
		}
	}
	return out
}
