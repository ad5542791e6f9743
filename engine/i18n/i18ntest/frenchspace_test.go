package i18ntest

import (
	"slices"
	"testing"
)

// TestBreakingMarks finds a colon after a word with no space or an
// ordinary one, and leaves alone the no-break spaces, times, links and
// words quoted to type.
func TestBreakingMarks(t *testing.T) {
	bad := []string{"Adresse: bob@example.org", "En main : 5", "Prêt?", "(aussi)!"}
	good := []string{"Adresse\u00a0: bob", "Prêt\u202f?", "à 10:57", "https://example.org/play/x?token=y", "une ligne «\u00a0chat:\u00a0»", ": après un lien"}
	if got := BreakingMarks(append(slices.Clone(bad), good...)); !slices.Equal(got, bad) {
		t.Errorf("BreakingMarks = %q, want %q", got, bad)
	}
}
