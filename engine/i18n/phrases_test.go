package i18n

import (
	"slices"
	"testing"
)

// TestPhrases checks the literal texts of a catalog: every run between
// substitutions that holds a letter, plural forms included.
func TestPhrases(t *testing.T) {
	got := good(t).Phrases("en")
	want := []string{"Gold:", "Waiting for", "card", "cards", "has", "hour left", "hours left", "no cards", "one card", "played"}
	if !slices.Equal(got, want) {
		t.Errorf("Phrases(en) = %q, want %q", got, want)
	}
	if fr := good(t).Phrases("fr"); !slices.Contains(fr, "En attente de") || slices.Contains(fr, "Waiting for") {
		t.Errorf("Phrases(fr) = %q", fr)
	}
}
