package api_test

import (
	"context"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/tokens"
)

// TestBrowserWholeGameByTappingCards plays a whole game of both games in
// chromium on a phone (390x844), each seat in its own tab, by tapping
// cards only: each move is a tap on a card of the table (or on the seat's
// own tile, for the moves about no card), then on one of the moves the
// card offers, then on the action bar's confirmation when it asks for one;
// the full list of moves is never touched. After every tap the action bar
// shows the confirmation, the take-back or the "played" line inside the
// viewport. The game ends.
func TestBrowserWholeGameByTappingCards(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	shots := os.Getenv("PBEM_SCREENSHOTS")
	for _, g := range []struct {
		name    string
		players int
	}{{lords.Name, 2}, {bagpipes.Name, 3}} {
		t.Run(g.name, func(t *testing.T) {
			id := e.createGame(g.name, g.players, "en", "")
			tabs := map[int]context.Context{}
			taps := 0
			for ; taps < 1500; taps++ {
				seat := e.toMove(id)
				if seat < 0 {
					break
				}
				tb, ok := tabs[seat]
				if !ok {
					tb = tab(t, root, 390, 844, true)
					tabs[seat] = tb
					within(t, tb, 30*time.Second, "open the link",
						chromedp.Navigate(e.url+"/play/"+id+"?token="+url.QueryEscape(tokens.Seat(secret, id, seat, 0))),
						chromedp.WaitVisible(chromedp.CSS("#game")))
				}
				within(t, tb, 30*time.Second, "the page", chromedp.Navigate(e.url+"/play/"+id),
					chromedp.WaitVisible(chromedp.CSS(".pick > summary")))
				within(t, tb, 10*time.Second, "mark the bar",
					chromedp.Evaluate[chromedp.Void](`document.getElementById("action-bar").dataset.old = "1"`))
				// A card, then one of its moves, chosen by the tap's number.
				n := eval[int](t, tb, `document.querySelectorAll(".pick > summary").length`)
				card := `document.querySelectorAll(".pick > summary")[` + strconv.Itoa(taps*7%n) + `]`
				within(t, tb, 20*time.Second, "tap a card",
					chromedp.Evaluate[chromedp.Void](card+`.scrollIntoView({block: "center"})`),
					chromedp.Evaluate[chromedp.Void](card+`.click()`),
					chromedp.WaitVisible(chromedp.CSS(".pick[open] .card-moves button")))
				if shots != "" && taps < 2 {
					viewportShot(t, tb, shots, "cards-"+g.name+"-"+strconv.Itoa(taps)+"-open.png")
				}
				m := eval[int](t, tb, `document.querySelectorAll(".pick[open] .card-moves button").length`)
				move := `document.querySelectorAll(".pick[open] .card-moves button")[` + strconv.Itoa(taps*3%m) + `]`
				within(t, tb, 20*time.Second, "tap a move of the card",
					chromedp.Evaluate[chromedp.Void](move+`.scrollIntoView({block: "center"})`),
					chromedp.Evaluate[chromedp.Void](move+`.click()`))
				c := waitControl(t, tb, "after tap "+strconv.Itoa(taps), "")
				inViewport(t, c, "after tap "+strconv.Itoa(taps))
				if c.ID == "confirm-move" {
					within(t, tb, 20*time.Second, "confirm",
						chromedp.Evaluate[chromedp.Void](`document.getElementById("action-bar").dataset.old = "1"`),
						chromedp.Evaluate[chromedp.Void](`document.getElementById("confirm-move").click()`))
					c = waitControl(t, tb, "after the confirmation of tap "+strconv.Itoa(taps), "confirm-move")
					inViewport(t, c, "after the confirmation of tap "+strconv.Itoa(taps))
				}
			}
			if seat := e.toMove(id); seat >= 0 {
				t.Fatalf("after %d taps, seat %d is still to move", taps, seat)
			}
			t.Logf("%s: a whole game in %d card taps", g.name, taps)
		})
	}
}
