package inbound

import (
	"slices"
	"testing"
)

// TestPickReadsMovesInWords: a move line in words finds its move in
// English, French and Italian without its possessives and articles, by a
// unique start or by a unique word of its label, and never picks one of
// several moves it fits: it then names them all.
func TestPickReadsMovesInWords(t *testing.T) {
	lists := map[string][]string{
		"en": {"Collect taxes (+1 gold)", "Assemble troops (+2 units in your castle)", "Hire mercenaries (pay 1 gold, +4 units in your castle)",
			"Move 1 unit from your castle to your camp", "Move 2 units from your castle to your camp", "End your turn", "Give the badge of honour to Ann"},
		"fr": {"Percevoir des impôts (+1 or)", "Rassembler des troupes (+2 unités dans votre château)",
			"Délocaliser 1 unité de votre château vers votre camp", "Terminer votre tour"},
		"it": {"Riscuoti le tasse (+1 moneta d'oro)", "Raduna le truppe (+2 unità nel tuo castello)",
			"Sposta 1 unità dal tuo castello al tuo accampamento", "Termina il tuo turno"},
	}
	names := []string{"Ann", "Bob"}
	cases := []struct {
		lang, line string
		want       int   // the move picked, -1 for none
		several    []int // the moves an ambiguous line fits
	}{
		{"en", "2", 1, nil},
		{"en", "6. End your turn", 5, nil},
		{"en", "end my turn", 5, nil},
		{"en", "end turn", 5, nil},
		{"en", "End the turn.", 5, nil},
		{"en", "taxes", 0, nil},
		{"en", "collect taxes", 0, nil},
		{"en", "mercenaries", 2, nil},
		{"en", "move 1 unit", 3, nil},
		{"en", "move 2", 4, nil},
		{"en", "move", -1, []int{3, 4}},
		{"en", "castle", -1, []int{1, 2, 3, 4}},
		{"en", "gold", -1, []int{0, 2}},
		{"en", "Ann", -1, nil}, // a sign-off, not the badge to Ann
		{"en", "badge Ann", 6, nil},
		{"en", "taxes please", -1, nil},
		{"en", "I will collect taxes", -1, nil},
		{"fr", "terminer mon tour", 3, nil},
		{"fr", "Terminer le tour !", 3, nil},
		{"fr", "impots", 0, nil},
		{"fr", "château", -1, []int{1, 2}},
		{"it", "termina il turno", 3, nil},
		{"it", "termina turno", 3, nil},
		{"it", "tasse", 0, nil},
		{"it", "castello", -1, []int{1, 2}},
	}
	for _, c := range cases {
		got, several := pick(c.line, lists[c.lang], names)
		if got != c.want || !slices.Equal(several, c.several) {
			t.Errorf("%s %q: pick = %d %v, want %d %v", c.lang, c.line, got, several, c.want, c.several)
		}
	}
}
