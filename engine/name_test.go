package engine

import (
	"strings"
	"testing"
)

func TestPlainName(t *testing.T) {
	for _, s := range []string{"Ann", "Zoë", "李雷", "Ann-Marie O'Neil", "👩‍👩‍👧 family", strings.Repeat("x", 40)} {
		if !PlainName(s, 40) {
			t.Errorf("PlainName(%q) = false", s)
		}
	}
	for _, s := range []string{"", "Ann\nBob", "Ann\r", "tab\there", "esc\x1b[31m", "bell\a", "Ann\u202Egnp.exe", "iso\u2066late",
		"mark\u200F", "\u061Carabic", strings.Repeat("x", 41), "bad\xffutf8"} {
		if PlainName(s, 40) {
			t.Errorf("PlainName(%q) = true", s)
		}
	}
}
