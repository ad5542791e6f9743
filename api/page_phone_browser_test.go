package api_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/tokens"
)

// maxPhonePage is how tall, in CSS pixels, the play page may be for a
// typical turn on a 390x844 phone: issue #43 asks for at most about
// 2,000 px (3,260 to 4,734 px for these games before it); the French
// pages, whose words are longest, come closest, with
// the table talk's box at its four lines (TestBrowserTableTalk).
const maxPhonePage = 2200

// typicalTurns are the games of TestBrowserPlayPageFitsAPhone: four
// players each, a few rounds of moves in (moves chosen by a fixed seed
// from the legal ones: the same game every run).
var typicalTurns = []struct {
	game
	moves int
}{{game{lords.Name, 4}, 12}, {game{bagpipes.Name, 4}, 10}}

// TestBrowserPlayPageFitsAPhone opens the play page of a typical turn of
// each game (four players, a few rounds in, two lines of table talk, the
// awaited seat's first visit on a device whose time zone the browser
// tells) in en, fr and it, on a phone (390x844) and a desktop (1280x900).
// The phone page is at most maxPhonePage tall (document.body.scrollHeight);
// the time-zone question is one closed line naming the zone; the action
// bar names the decision to make with a link into the moves; the moves
// the seat can make now are on screen without unfolding anything; every
// folded panel is labelled, tells its state (aria-expanded) and opens
// from the keyboard; nothing a player needs has left the page. axe-core
// finds no serious or critical violation, folded and unfolded, at both
// sizes. Full-page screenshots go to screenshotDir (PBEM_SCREENSHOTS).
func TestBrowserPlayPageFitsAPhone(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)
	ctx := context.Background()
	for gi, g := range typicalTurns {
		for li, lang := range []string{"en", "fr", "it"} {
			id := e.createGame(g.name, g.players, lang, "")
			e.playToTurnStart(id, uint64(10*gi+li+1), g.moves)
			for i, line := range []string{"Bonne chance à tous !", "Ready when you are."} {
				if err := e.svc.ChatAs(ctx, id, i, line, fmt.Sprintf("phone-%s-%d", lang, i)); err != nil {
					t.Fatal(err)
				}
			}
			seat := e.toMove(id)
			if seat < 0 {
				t.Fatalf("%s %s: the game ended", g.name, lang)
			}
			link := e.url + "/play/" + id + "?token=" + url.QueryEscape(tokens.Seat(secret, id, seat, 0))
			for _, vp := range phoneAndDesktop {
				name := g.name + "-" + lang + "-" + map[bool]string{true: "phone", false: "desktop"}[vp.mobile]
				tb := tab(t, root, vp.w, vp.h, vp.mobile)
				openOnDevice(t, tb, link, "Europe/Rome", name)
				h := eval[int](t, tb, `document.body.scrollHeight`)
				t.Logf("%s: %d px tall", name, h)
				if vp.mobile && h > maxPhonePage {
					t.Errorf("%s: the play page is %d px tall at %dx%d, more than %d; its parts: %s",
						name, h, vp.w, vp.h, maxPhonePage, eval[string](t, tb, tallestParts))
				}
				checkZoneLine(t, tb, name, "Europe/Rome")
				checkBarNamesDecision(t, tb, name)
				checkMovesInSight(t, tb, name)
				checkFolds(t, tb, name)
				for _, sel := range []string{"#moves-form", "#table-talk", "#catchup", "#h-hand", "#chat-text", "#live-links", "#zone-input"} {
					if !eval[bool](t, tb, `!!document.querySelector("`+sel+`")`) {
						t.Errorf("%s: %s is gone from the page", name, sel)
					}
				}
				if lang == "en" || vp.mobile {
					keepShot(t, tb, shots, "phone-height-"+name+".png")
				}
				fitsAndAxeClean(t, tb, src, name+" folded", vp.w)
				eval[bool](t, tb, `document.querySelectorAll("details").forEach(d => { d.open = true; }), true`)
				fitsAndAxeClean(t, tb, src, name+" unfolded", vp.w)
				checkBarFocusesAMove(t, tb, name)
				release(tb)
			}
		}
	}
}

// playToTurnStart plays at least n moves of game id, chosen by seed among
// the legal ones, and on until a seat other than the last mover's is
// awaited: the page then shows the start of that seat's turn.
func (e *pageEnv) playToTurnStart(id string, seed uint64, n int) {
	e.t.Helper()
	rng := rand.New(rand.NewPCG(seed, 43))
	last := -1
	for i := 0; i < n+40; i++ {
		seat := e.toMove(id)
		if seat < 0 {
			e.t.Fatalf("game %s ended after %d moves", id, i)
		}
		if i >= n && seat != last {
			return
		}
		e.playRandomMove(id, seat, rng)
		last = seat
	}
	e.t.Fatalf("game %s: the turn does not pass", id)
}

// openOnDevice opens a play link in tab tb on a device in time zone
// zone, and waits until the page tells times in it (the script stores
// the zone, with one reload).
func openOnDevice(t *testing.T, tb context.Context, link, zone, what string) {
	t.Helper()
	within(t, tb, 30*time.Second, what,
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone})
			return err
		}),
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS("#game")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`document.body.dataset.tz === "`+zone+`" && document.readyState === "complete"`,
				chromedp.WithPollingTimeout(10*time.Second))(ctx, tg)
			return err
		}),
	)
}

// tallestParts names the play page's parts (the blocks of the game, its
// board and its side column) with their heights, tallest first: what a
// failed height check looks at.
const tallestParts = `(() => {
	const parts = Array.from(document.querySelectorAll("#game > *, .board > *, .side > *, .board > * > section, .board > * > *"))
		.filter(el => el.offsetHeight > 0 && !el.classList.contains("cols"))
		.map(el => [el.id || el.getAttribute("aria-labelledby") || el.tagName.toLowerCase() + "." + el.className, el.offsetHeight]);
	parts.sort((a, b) => b[1] - a[1]);
	return parts.slice(0, 12).map(p => p[0] + " " + p[1]).join(", ");
})()`

// checkZoneLine checks that the time-zone question is one closed line
// naming zone, as it is once the device has told its zone.
func checkZoneLine(t *testing.T, tb context.Context, name, zone string) {
	t.Helper()
	open := eval[bool](t, tb, `document.getElementById("zone").open`)
	line := eval[string](t, tb, `document.querySelector("#zone > summary").textContent`)
	if open || !strings.Contains(line, zone) {
		t.Errorf("%s: the time-zone panel is open %v, its line %q (want one closed line naming %s)", name, open, line, zone)
	}
}

// checkBarNamesDecision checks that the action bar of a seat to move
// names the decision it has to make, with a link into the page's moves:
// to the one kind of move's fieldset, whose legend the bar names, or to
// the folded list of all the moves when there are several kinds.
func checkBarNamesDecision(t *testing.T, tb context.Context, name string) {
	t.Helper()
	got := eval[[]string](t, tb, `(() => {
		const a = document.querySelector("#action-bar a.bar-decide");
		if (!a) return ["", "", "", ""];
		const to = document.getElementById(a.hash.slice(1));
		const legend = to && to.tagName === "FIELDSET" && to.querySelector("legend");
		return [a.hash, a.textContent.trim(), to && document.getElementById("moves-form").contains(to) ? "in" : "out", legend ? legend.textContent.trim() : ""];
	})()`)
	href, text, where, legend := got[0], got[1], got[2], got[3]
	switch {
	case href == "" || text == "":
		t.Errorf("%s: the action bar names no decision", name)
	case where != "in":
		t.Errorf("%s: the action bar's link %s does not lead into the moves", name, href)
	case legend != "" && legend != text:
		t.Errorf("%s: the action bar names %q, its link leads to %q", name, text, legend)
	}
}

// checkBarFocusesAMove checks that the action bar's link to the decision,
// tapped with the list of moves folded, unfolds it and puts the focus on
// a move of the decision (a user trial tapped "Choose your move" and
// found a folded block).
func checkBarFocusesAMove(t *testing.T, tb context.Context, name string) {
	t.Helper()
	got := eval[string](t, tb, `(() => {
		document.getElementById("all-moves").open = false;
		const a = document.querySelector("#action-bar a.bar-decide");
		a.click();
		const f = document.activeElement, to = document.getElementById(a.hash.slice(1));
		return f && f.name === "move" && to.contains(f) && f.offsetParent !== null ? "" : a.hash + " focused " + (f ? f.outerHTML.slice(0, 80) : "nothing");
	})()`)
	if got != "" {
		t.Errorf("%s: the action bar's link does not put the focus on a move: %s", name, got)
	}
}

// checkMovesInSight checks that every move the seat can make now is in
// sight without unfolding anything: its button in the moves form is
// shown, or a card or tile shown on the page offers it (a tap on it shows
// the move's button: the cards are the controls), and the moves form's
// line names every kind of move it holds.
func checkMovesInSight(t *testing.T, tb context.Context, name string) {
	t.Helper()
	hidden := eval[[]string](t, tb, `Array.from(document.querySelectorAll("#moves-form fieldset button[name=move]")).filter(b => {
		if (b.offsetParent !== null) return false;
		const twin = Array.from(document.querySelectorAll('button[form="moves-form"][name=move]')).find(c => c.value === b.value);
		const pick = twin && twin.closest("details.pick");
		return !(pick && pick.querySelector(":scope > summary").offsetParent !== null);
	}).map(b => b.textContent.trim())`)
	if len(hidden) > 0 {
		t.Errorf("%s: moves neither shown nor offered by a card in sight: %q", name, hidden)
	}
	unnamed := eval[[]string](t, tb, `(() => {
		const line = document.querySelector("#all-moves > summary").textContent;
		return Array.from(document.querySelectorAll("#moves-form legend")).map(l => l.textContent.trim()).filter(k => !line.includes(k));
	})()`)
	if len(unnamed) > 0 {
		t.Errorf("%s: the moves' line does not name %q", name, unnamed)
	}
}

// checkFolds checks every folded panel of the page: its line says what
// it holds, it tells whether it is open (aria-expanded, kept true to its
// state), and Enter on its focused line opens it.
func checkFolds(t *testing.T, tb context.Context, name string) {
	t.Helper()
	ids := eval[[]string](t, tb, `Array.from(document.querySelectorAll("details:not([open])")).map((d, i) => d.id || (d.id = "fold-" + i))`)
	for _, id := range ids {
		sum := `document.querySelector("#` + id + ` > summary")`
		label := eval[string](t, tb, sum+`.textContent.trim()`)
		if label == "" {
			t.Errorf("%s: the folded panel %s has no label", name, id)
		}
		if got := eval[string](t, tb, sum+`.getAttribute("aria-expanded") || ""`); got != "false" {
			t.Errorf("%s: the folded panel %q says aria-expanded=%q", name, label, got)
		}
		within(t, tb, 10*time.Second, name+": open "+id+" by the keyboard",
			chromedp.Focus(chromedp.CSS("#"+id+" > summary")), chromedp.KeyEvent("\r"),
			chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				_, err := chromedp.Poll[bool](`document.getElementById("`+id+`").open && `+sum+`.getAttribute("aria-expanded") === "true"`,
					chromedp.WithPollingTimeout(5*time.Second))(ctx, tg)
				if err != nil {
					return fmt.Errorf("Enter on %q does not open it and say so (aria-expanded): %w", label, err)
				}
				return nil
			}),
			chromedp.KeyEvent("\r"))
	}
}
