package api_test

import (
	"html"
	"strings"
	"testing"

	"pbem/engine/bagpipes"
)

// TestPageBagpipesInGameLanguage: the page shows the engine's move labels
// and card texts as they come, in the game's language, never English.
func TestPageBagpipesInGameLanguage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	cards := bagpipes.DefaultCards()
	for _, c := range []struct {
		lang, taxes string
		english     []string
	}{
		{"fr", "Percevoir des impôts (+1 or)", []string{"Collect taxes", "Hire mercenaries", "Move 1 unit", "Play "}},
		{"it", "Raduna le truppe (+2 unità nel tuo castello)", []string{"Collect taxes", "Hire mercenaries", "Move 1 unit", "Play "}},
		{"en", "Collect taxes (+1 gold)", nil},
	} {
		id := e.createGame(bagpipes.Name, 3, c.lang, "")
		body := html.UnescapeString(e.browser().open(id, e.toMove(id)).Body)
		if !strings.Contains(body, c.taxes) {
			t.Errorf("%s page lacks the label %q", c.lang, c.taxes)
		}
		for _, w := range c.english {
			if strings.Contains(body, w) {
				t.Errorf("%s page shows the English %q", c.lang, w)
			}
		}
		shown := 0
		for _, card := range cards.Bagpipes {
			name := card.NameIn(c.lang)
			if !strings.Contains(body, "<strong>"+name+"</strong>") {
				continue
			}
			shown++
			if txt := card.TextIn(c.lang); !strings.Contains(body, txt) {
				t.Errorf("%s page shows %s without its text %q", c.lang, name, txt)
			}
		}
		if shown == 0 {
			t.Errorf("%s page shows no bagpipe card", c.lang)
		}
	}
}
