package i18ntest

import "testing"

func TestDeveloperStrings(t *testing.T) {
	for _, bad := range []string{
		"Ann takes back their move (version 2).",
		"Status: active. Version 9.",
		"Versione 14",
		"Bob is now played by bot:normal",
		"seat:1 played",
		"Time ran out (system)",
		"admin",
		"Paused by admin.",
		"seed 3f2a9c81d0e4b7a6c5d4",
		"A rematch begins: game k5q2x7hfa3mz4nbd.",
		"%!d(string=x)",
		"<nil>",
		"map[a:1]",
		"{{.Name}}",
	} {
		if got := DeveloperStrings([]string{bad}); len(got) == 0 {
			t.Errorf("%q: not found", bad)
		}
	}
	for _, ok := range []string{
		"Open the admin page",
		"Lost the admin link? This page sends it again.",
		"Your turn — Lords of Scotland with Ann, Bob",
		"https://pbem.example.org/play/k5q2x7hfa3mz4nbd?token=3f2a9c81d0e4b7a6c5d4e3",
		"Ann mustered Scott 7 face-up",
		"Deadline: Mon 2 Jan 2026, 15:04",
		"Remaining cards: 12",
	} {
		if got := DeveloperStrings([]string{ok}); len(got) > 0 {
			t.Errorf("%q: %v", ok, got)
		}
	}
}
