package engine

import (
	"strings"
	"testing"
)

func TestPlainName(t *testing.T) {
	for _, s := range []string{"Ann", "Zoë", "李雷", "Ann-Marie O'Neil", "👩‍👩‍👧 family", strings.Repeat("x", 40),
		"m\u06CC\u200Cx", "\U0001F3F3\uFE0F\u200D\U0001F308 flag"} {
		if !PlainName(s, 40) {
			t.Errorf("PlainName(%q) = false", s)
		}
	}
	for _, s := range []string{"", "Ann\nBob", "Ann\r", "tab\there", "esc\x1b[31m", "bell\a", "Ann\u202Egnp.exe", "iso\u2066late",
		"mark\u200F", "\u061Carabic", strings.Repeat("x", 41), "bad\xffutf8",
		// Issue #44: line and paragraph separators, zero-width characters.
		"Ann\u2028Bob", "Ann\u2029", "A\u200Bnn", "\u200BAnn", "Ann\u200C", "A\u200C1", "An\u200Dn", "\u200D",
		"\U0001F44D\u200D", "A\u2060nn", "\uFEFFAnn", "An\u00ADn", "A\u180En"} {
		if PlainName(s, 40) {
			t.Errorf("PlainName(%q) = true", s)
		}
	}
}
