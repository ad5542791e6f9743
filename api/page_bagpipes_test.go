package api_test

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pbem/engine/bagpipes"
	"pbem/events/play"
	"pbem/events/play/playtest"
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
		{"fr", "Percevoir des impôts (+1 pièce d'or)", []string{"Collect taxes", "Hire mercenaries", "Move 1 unit", "Play "}},
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

// bagView reads a Swords and Bagpipes seat's view.
func bagView(t *testing.T, v *play.View) bagpipes.View {
	t.Helper()
	var bv bagpipes.View
	b, err := json.Marshal(v.State)
	if err == nil {
		err = json.Unmarshal(b, &bv)
	}
	if err != nil {
		t.Fatal(err)
	}
	return bv
}

// daggerCellRE reads a French players' table's dagger cell.
var daggerCellRE = regexp.MustCompile(`<td data-label="Dagues">([^<]*)</td>`)

// TestPageBagpipesSaysDaggersAndX2InWords: the players' table says each
// player's daggers in words, "5 sur 2 cartes" where the seat may know
// what its dagger cards hold (its own), "cachées, sur 1 carte" where it
// may not (another's: nothing more than the count everyone sees), and a
// card of the "x2" symbol says what the symbol means for it, in hand and
// played face up. A user trial could not read "Dagues: 0 (0)" nor "x2".
func TestPageBagpipesSaysDaggersAndX2InWords(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(bagpipes.Name, 3, "fr", "")
	cards := func(n int) string { return map[bool]string{true: "carte", false: "cartes"}[n == 1] }
	var other int // a player with dagger cards the seat may not read
	seat := e.playUntil(id, 7, 400, func(v *play.View) bool {
		bv := bagView(t, v)
		if bv.Players[bv.Seat].DaggerCards == 0 {
			return false
		}
		for _, p := range bv.Players {
			if p.Seat != bv.Seat && p.DaggerCards > 0 {
				other = p.Seat
				return true
			}
		}
		return false
	})
	v, err := playtest.SeatView(t.Context(), e.svc, secret, id, seat)
	if err != nil {
		t.Fatal(err)
	}
	bv := bagView(t, v)
	cells := daggerCellRE.FindAllStringSubmatch(html.UnescapeString(e.browser().open(id, seat).Body), -1)
	if len(cells) != 3 {
		t.Fatalf("seat %d's page shows %d dagger cells, want 3", seat, len(cells))
	}
	own, theirs := bv.Players[seat], bv.Players[other]
	if got, want := cells[seat][1], fmt.Sprintf("%d sur %d %s", *own.DaggerTotal, own.DaggerCards, cards(own.DaggerCards)); got != want {
		t.Errorf("seat %d's own daggers read %q, want %q", seat, got, want)
	}
	if got, want := cells[other][1], fmt.Sprintf("cachées, sur %d %s", theirs.DaggerCards, cards(theirs.DaggerCards)); got != want {
		t.Errorf("seat %d's page reads seat %d's daggers %q, want %q", seat, other, got, want)
	}

	// A card of the "x2" symbol, in hand, then played face up.
	id = e.createGame(bagpipes.Name, 3, "fr", "")
	for _, c := range []struct {
		says  string
		cards func(bagpipes.View) []bagpipes.CardView
	}{
		{"x2\u00a0: se joue deux fois", func(bv bagpipes.View) []bagpipes.CardView { return bv.Hand }},
		{"x2\u00a0: se rejoue une fois", func(bv bagpipes.View) []bagpipes.CardView { return bv.Players[bv.Seat].Table }},
	} {
		name := ""
		seat := e.playUntil(id, 8, 600, func(v *play.View) bool {
			for _, card := range c.cards(bagView(t, v)) {
				if card.X2 {
					name = card.Name
					return true
				}
			}
			return false
		})
		if body := html.UnescapeString(e.browser().open(id, seat).Body); !strings.Contains(body, "<strong>"+name+"</strong> <span class=\"tag\">"+c.says) {
			t.Errorf("seat %d's page does not say %q of %s:\n%s", seat, c.says, name, body)
		}
	}
}

// TestPageBagpipesOffersTheTurnInSight: on the seat's turn the action
// bar's "Choose your move" leads to the list of all the moves (the script
// unfolds it and focuses its first move: TestBrowserPlayPageFitsAPhone),
// and a card of the "x2" symbol on the seat's own table that may be
// played again is ringed and opens its play, as a card of the hand does.
// A user trial found the bar's link leading to a folded heading, and the
// card to play again looking like any card on the table.
func TestPageBagpipesOffersTheTurnInSight(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(bagpipes.Name, 3, "en", "")
	body := e.browser().open(id, e.toMove(id)).Body
	if !strings.Contains(body, `<a href="#all-moves" class="bar-decide">`) {
		t.Error(`the action bar's "Choose your move" does not lead to the list of all the moves`)
	}
	name := ""
	seat := e.playUntil(id, 3, 800, func(v *play.View) bool {
		bv := bagView(t, v)
		for _, c := range bv.Players[bv.Seat].Table {
			for _, m := range v.LegalMoves {
				if m.About().Card == bagpipes.HandCard(c.ID) {
					name = c.Name
					return true
				}
			}
		}
		return false
	})
	body = html.UnescapeString(e.browser().open(id, seat).Body)
	table := body[strings.Index(body, `id="h-players"`):]
	card := regexp.MustCompile(`<li class="bcard[^"]*"><details class="pick"><summary><strong>` + regexp.QuoteMeta(name) + `</strong>`).FindString(table)
	if !strings.Contains(card, "playable") {
		t.Errorf("seat %d's page does not offer to play %s again from its table:\n%s", seat, name, table)
	}
}
