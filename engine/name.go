package engine

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"pbem/engine/i18n"
)

// PlainName reports whether s can be shown as a name: valid UTF-8, 1 to
// maxRunes characters, no control character (line breaks, tabs, escapes),
// no line or paragraph separator (U+2028, U+2029: a line break to
// JavaScript and many mail readers), no bidirectional formatting
// character, which would reorder the text around it (U+202E shows
// "txt.exe" as "exe.txt") in pages and emails, and no invisible one
// (invisibleAt: two names that look alike must differ visibly).
func PlainName(s string, maxRunes int) bool {
	if s == "" || !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxRunes {
		return false
	}
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsControl(r) || isBidiControl(r) || unicode.In(r, unicode.Zl, unicode.Zp) || invisibleAt(rs, i) {
			return false
		}
	}
	return true
}

// invisibleAt reports whether rs[i] is a character that shows nothing:
// the zero-width space, word joiner and invisible operators, the byte
// order mark, the soft hyphen, the Mongolian vowel separator; the
// zero-width joiner except between two emoji (where it joins 👩 and 👧
// into one family), and the zero-width non-joiner except between two
// letters (where Persian and Indic scripts need it).
func invisibleAt(rs []rune, i int) bool {
	switch r := rs[i]; {
	case r == '\u200B', r >= '\u2060' && r <= '\u2064', r == '\uFEFF', r == '\u00AD', r == '\u180E':
		return true
	case r == '\u200D':
		return i == 0 || i == len(rs)-1 || !isEmojiPart(rs[i-1]) || !isEmojiPart(rs[i+1])
	case r == '\u200C':
		return i == 0 || i == len(rs)-1 || !unicode.IsLetter(rs[i-1]) && !unicode.IsMark(rs[i-1]) || !unicode.IsLetter(rs[i+1])
	}
	return false
}

// isEmojiPart reports whether r can stand beside a joiner in an emoji
// sequence: a symbol (So), a skin tone (Sk) or the emoji variation
// selector U+FE0F.
func isEmojiPart(r rune) bool {
	return r == '\uFE0F' || unicode.In(r, unicode.So, unicode.Sk)
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
