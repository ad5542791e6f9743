package api_test

import (
	"encoding/json"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pbem/engine/bagpipes"
	"pbem/events/play"
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

// TestPageBagpipesTellsAHiddenSideFromNone: the players' table marks a
// side chosen and kept secret "?", and a side not chosen (before the
// choice, and once the game is over) "—"; a finished game's table read
// "Side: ?" for everyone, as if the sides were still hidden.
func TestPageBagpipesTellsAHiddenSideFromNone(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(bagpipes.Name, 3, "en", "")
	sides := func(seat int) []string {
		t.Helper()
		var out []string
		for _, m := range sideCellRE.FindAllStringSubmatch(e.browser().open(id, seat).Body, -1) {
			out = append(out, html.UnescapeString(m[1]))
		}
		if len(out) != 3 {
			t.Fatalf("seat %d's page shows %d sides, want 3", seat, len(out))
		}
		return out
	}
	if got := sides(0); !slices.Equal(got, []string{"—", "—", "—"}) {
		t.Errorf("before any choice the sides read %q", got)
	}
	// Until a seat sees another's side chosen and hidden.
	var hidden int
	seat := e.playUntil(id, 3, 200, func(v *play.View) bool {
		var st struct {
			Players []struct {
				Seat   int    `json:"seat"`
				Chosen bool   `json:"chosen"`
				Side   string `json:"side"`
			} `json:"players"`
		}
		b, err := json.Marshal(v.State)
		if err != nil || json.Unmarshal(b, &st) != nil {
			return false
		}
		for _, p := range st.Players {
			if p.Chosen && p.Side == "" {
				hidden = p.Seat
				return true
			}
		}
		return false
	})
	if got := sides(seat); got[hidden] != "?" {
		t.Errorf("seat %d's page reads seat %d's hidden side %q, want ?", seat, hidden, got[hidden])
	}
	e.playToEnd(id, 5, 3000)
	if got := sides(0); slices.Contains(got, "?") {
		t.Errorf("the finished game's sides read %q", got)
	}
}

// sideCellRE reads a Swords and Bagpipes players' table's side cell.
var sideCellRE = regexp.MustCompile(`<td data-label="Side">([^<]*)</td>`)
