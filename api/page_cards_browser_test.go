package api_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserWholeGameByTappingCards plays a whole game of both games in
// chromium, on a phone (390x844) and on a desktop (1280x900), each seat in
// its own tab, by tapping cards only: each move is a tap on a card of the
// table (or on the seat's own tile, for the moves about no card), then on
// one of the moves the card offers, then on the action bar's confirmation
// when it asks for one; the full list of moves is never touched. After
// every tap the action bar shows the confirmation, the take-back or the
// "played" line inside the viewport. The game ends.
//
// A tab is opened once and then follows the game by itself (its live
// updates): before each tap the test waits until the tab shows the game's
// current version, instead of loading the page again (a load per tap was
// most of the test's time).
func TestBrowserWholeGameByTappingCards(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	shots := os.Getenv("PBEM_SCREENSHOTS")
	for _, g := range bothGames {
		for _, vp := range phoneAndDesktop {
			size := strconv.FormatInt(vp.w, 10) + "x" + strconv.FormatInt(vp.h, 10)
			t.Run(g.name+"-"+size, func(t *testing.T) {
				id := e.createGame(g.name, g.players, "en", "")
				tabs := map[int]context.Context{}
				taps := 0
				for ; taps < 1500; taps++ {
					seat := e.toMove(id)
					if seat < 0 {
						break
					}
					tb := seatTab(t, root, e, tabs, id, seat, vp)
					showsVersion(t, tb, e.version(id), "before tap "+strconv.Itoa(taps))
					within(t, tb, 10*time.Second, "mark the bar, close the cards",
						chromedp.Evaluate[chromedp.Void](`document.getElementById("action-bar").dataset.old = "1";
document.querySelectorAll(".pick[open]").forEach(function (d) { d.open = false; })`))
					// A card, then one of its moves, chosen by the tap's number.
					n := eval[int](t, tb, `document.querySelectorAll(".pick > summary").length`)
					card := `document.querySelectorAll(".pick > summary")[` + strconv.Itoa(taps*7%n) + `]`
					within(t, tb, 20*time.Second, "tap a card",
						chromedp.Evaluate[chromedp.Void](card+`.scrollIntoView({block: "center"})`),
						chromedp.Evaluate[chromedp.Void](card+`.click()`),
						chromedp.WaitVisible(chromedp.CSS(".pick[open] .card-moves button")))
					if shots != "" && taps < 2 {
						viewportShot(t, tb, shots, "cards-"+g.name+"-"+size+"-"+strconv.Itoa(taps)+"-open.png")
					}
					m := eval[int](t, tb, `document.querySelectorAll(".pick[open] .card-moves button").length`)
					move := `document.querySelectorAll(".pick[open] .card-moves button")[` + strconv.Itoa(taps*3%m) + `]`
					within(t, tb, 20*time.Second, "tap a move of the card",
						chromedp.Evaluate[chromedp.Void](move+`.scrollIntoView({block: "center"})`),
						chromedp.Evaluate[chromedp.Void](move+`.click()`))
					c := waitControl(t, tb, "after tap "+strconv.Itoa(taps), "")
					inViewport(t, c, "after tap "+strconv.Itoa(taps))
					confirmInViewport(t, tb, c, "tap "+strconv.Itoa(taps))
				}
				if seat := e.toMove(id); seat >= 0 {
					t.Fatalf("after %d taps, seat %d is still to move", taps, seat)
				}
				t.Logf("%s at %s: a whole game in %d card taps", g.name, size, taps)
			})
		}
	}
}

// showsVersion waits until the tab's play page shows version v of its game
// (the live updates bring it) with cards to tap.
func showsVersion(t *testing.T, tb context.Context, v int64, what string) {
	t.Helper()
	within(t, tb, 30*time.Second, what+": the page at version "+strconv.FormatInt(v, 10),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`(function () {
  var g = document.getElementById("game");
  return !!g && g.dataset.version === "`+strconv.FormatInt(v, 10)+`" && !!document.querySelector(".pick > summary");
})()`, chromedp.WithPollingTimeout(25*time.Second), chromedp.WithPollingInterval(50*time.Millisecond))(ctx, tg)
			return err
		}))
}
