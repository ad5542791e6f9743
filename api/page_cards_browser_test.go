package api_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserWholeGameByTapping plays a whole game of both games in
// chromium, each seat in its own tab, the seats on a phone (390x844) and
// on a desktop (1280x900) in turn (seat 0 on the phone, seat 1 on the
// desktop, seat 2 on the phone): the first eight moves by tapping a move far down the full
// list (the page scrolled to it, as a thumb would after reading the
// page), every later move by tapping cards only. It merges two journeys
// that played the same games on the same play pages at the same two sizes
// (each created its own four games and tabs) and keeps the assertions of
// both:
//
// From TestBrowserActionBarAfterEveryTap (the first eight moves, the page
// loaded before each): after every tap, the confirmation (a move that
// cannot be taken back) or the take-back control, or the line that says
// the move was played, is inside the viewport (its bounding box); a
// confirmation, once tapped, leaves the take-back or the "played" line
// inside it too; at least four taps were made. Screenshots bar-*.png.
//
// From TestBrowserWholeGameByTappingCards (the moves after them, to the
// end): each move is a tap on a card of the table (or on the seat's own
// tile, for the moves about no card), then on one of the moves the card
// offers, then on the action bar's confirmation when it asks for one; the
// full list of moves is never touched. After every tap the action bar
// shows the confirmation, the take-back or the "played" line inside the
// viewport; the tap that ends the game leaves no bar, the page shown from
// its top, where the notice that the move was played is. The game ends,
// and every seat's tab shows its end, without the bar. A tab is opened
// once and then follows the game by itself (its live updates): before
// each tap the test waits until the tab shows the game's current version,
// instead of loading the page again. Screenshots cards-*.png.
//
// Each game was played twice, once with every seat on the phone and once
// with every seat on the desktop: four whole games, the largest cost of
// make test's browser tests (82 CPU s of chromium and the test alone,
// about a tenth of make test's CPU). One game with both sizes at the
// table makes the same taps at both sizes, through every phase of the
// game, at half the cost (53 CPU s); each size must have made ten card
// taps or more, so that neither is left out.
//
// PBEM_SCREENSHOTS keeps the screenshots.
func TestBrowserWholeGameByTapping(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	shots := os.Getenv("PBEM_SCREENSHOTS")
	for _, g := range bothGames {
		t.Run(g.name, func(t *testing.T) {
			id := e.createGame(g.name, g.players, "en", "")
			tabs := map[int]context.Context{}
			listTaps := tapTheMoveList(t, root, e, tabs, id, g, shots)
			if listTaps < 4 {
				t.Fatalf("only %d taps", listTaps)
			}
			taps, mobileTaps := 0, 0
			for ; taps < 1500; taps++ {
				seat := e.toMove(id)
				if seat < 0 {
					break
				}
				vp := seatViewport(seat)
				if vp.mobile {
					mobileTaps++
				}
				tb := seatTab(t, root, e, tabs, id, seat, vp)
				showsVersion(t, tb, e.version(id), "before tap "+strconv.Itoa(taps))
				shot := ""
				if shots != "" && taps < 2 {
					shot = "cards-" + g.name + "-" + strconv.FormatInt(vp.w, 10) + "x" + strconv.FormatInt(vp.h, 10) + "-" + strconv.Itoa(taps) + "-open.png"
				}
				tapACard(t, tb, taps, shots, shot)
			}
			if seat := e.toMove(id); seat >= 0 {
				t.Fatalf("after %d card taps, seat %d is still to move", taps, seat)
			}
			for seat, tb := range tabs {
				showsTheEnd(t, tb, e.version(id), "seat "+strconv.Itoa(seat))
			}
			if mobileTaps < 10 || taps-mobileTaps < 10 {
				t.Fatalf("%d of %d card taps on the phone: a size was left out", mobileTaps, taps)
			}
			t.Logf("%s: a whole game in %d taps of the list and %d card taps, %d of them on the phone", g.name, listTaps, taps, mobileTaps)
		})
	}
}

// showsTheEnd waits until tab tb shows the end of its game at version v
// (the last move's answer, or a live update): "Play again", no action bar
// (its region is empty) and no room kept for one under the page.
func showsTheEnd(t *testing.T, tb context.Context, v int64, what string) {
	t.Helper()
	within(t, tb, 30*time.Second, what+": the end at version "+strconv.FormatInt(v, 10),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`(function () {
  var g = document.getElementById("game");
  return !!g && g.dataset.version === "`+strconv.FormatInt(v, 10)+`" && !!document.getElementById("rematch") &&
    !!document.querySelector("#action-bar:not(.actionbar)") && !document.querySelector(".actionbar") &&
    getComputedStyle(g).paddingBottom === "0px";
})()`, chromedp.WithPollingTimeout(25*time.Second), chromedp.WithPollingInterval(10*time.Millisecond))(ctx, tg)
			return err
		}))
}

// tapACard taps a card of the seat's tab tb, then one of its moves, both
// chosen by the tap's number, and checks the action bar after it (in the
// viewport, with its confirmation). With shot, the opened card is
// screenshot into that file of the folder shots.
func tapACard(t *testing.T, tb context.Context, taps int, shots, shot string) {
	t.Helper()
	within(t, tb, 10*time.Second, "mark the bar, close the cards",
		chromedp.Evaluate[chromedp.Void](`document.getElementById("action-bar").dataset.old = "1";
document.querySelectorAll(".pick[open]").forEach(function (d) { d.open = false; })`))
	n := eval[int](t, tb, `document.querySelectorAll(".pick > summary").length`)
	card := `document.querySelectorAll(".pick > summary")[` + strconv.Itoa(taps*7%n) + `]`
	within(t, tb, 20*time.Second, "tap a card",
		chromedp.Evaluate[chromedp.Void](card+`.scrollIntoView({block: "center"})`),
		chromedp.Evaluate[chromedp.Void](card+`.click()`),
		chromedp.WaitVisible(chromedp.CSS(".pick[open] .card-moves button")))
	if shot != "" {
		viewportShot(t, tb, shots, shot)
	}
	m := eval[int](t, tb, `document.querySelectorAll(".pick[open] .card-moves button").length`)
	move := `document.querySelectorAll(".pick[open] .card-moves button")[` + strconv.Itoa(taps*3%m) + `]`
	within(t, tb, 20*time.Second, "tap a move of the card",
		chromedp.Evaluate[chromedp.Void](move+`.scrollIntoView({block: "center"})`),
		chromedp.Evaluate[chromedp.Void](move+`.click()`))
	c := waitControl(t, tb, "after card tap "+strconv.Itoa(taps), "")
	inViewport(t, c, "after card tap "+strconv.Itoa(taps))
	confirmInViewport(t, tb, c, "card tap "+strconv.Itoa(taps))
}

// seatViewport is the size of seat's tab in TestBrowserWholeGameByTapping:
// the phone and the desktop in turn.
func seatViewport(seat int) viewport { return phoneAndDesktop[seat%len(phoneAndDesktop)] }

// tapTheMoveList plays up to eight moves of game id by tapping the last
// move of the full list, the page loaded before each tap, and checks the
// action bar after each (TestBrowserWholeGameByTapping's first part). It
// returns the number of taps.
func tapTheMoveList(t *testing.T, root context.Context, e *pageEnv, tabs map[int]context.Context, id string, g game, shots string) int {
	t.Helper()
	taps := 0
	for step := 0; step < 8; step++ {
		seat := e.toMove(id)
		if seat < 0 {
			break
		}
		vp := seatViewport(seat)
		tb := seatTab(t, root, e, tabs, id, seat, vp)
		within(t, tb, 20*time.Second, "the page", chromedp.Navigate(e.url+"/play/"+id),
			chromedp.WaitVisible(chromedp.CSS("form.moves")), unfoldMoves,
			chromedp.WaitVisible(chromedp.CSS("form.moves button")))
		if shots != "" && vp.mobile && step == 0 {
			viewportShot(t, tb, shots, "bar-"+g.name+"-open.png")
		}
		// The bar before the tap is marked: the one after it is new.
		within(t, tb, 10*time.Second, "mark the bar",
			chromedp.Evaluate[chromedp.Void](`document.getElementById("action-bar").dataset.old = "1"`))
		// Tap the last move of the list, scrolled into view, as a
		// thumb would after reading the page.
		n := eval[int](t, tb, `document.querySelectorAll("form.moves button").length`)
		sel := `(document.querySelectorAll("form.moves button")[` + strconv.Itoa(n-1) + `])`
		within(t, tb, 20*time.Second, "tap a move",
			chromedp.Evaluate[chromedp.Void](sel+`.scrollIntoView({block: "center"})`),
			chromedp.Evaluate[chromedp.Void](sel+`.click()`))
		taps++
		c := waitControl(t, tb, "after tap "+strconv.Itoa(taps), "")
		inViewport(t, c, "after tap "+strconv.Itoa(taps))
		if shots != "" && vp.mobile && step < 3 {
			viewportShot(t, tb, shots, "bar-"+g.name+"-"+strconv.Itoa(step)+"-"+c.ID+".png")
		}
		if confirmInViewport(t, tb, c, "tap "+strconv.Itoa(taps)) && shots != "" && vp.mobile && step < 3 {
			viewportShot(t, tb, shots, "bar-"+g.name+"-"+strconv.Itoa(step)+"-confirmed.png")
		}
	}
	return taps
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
})()`, chromedp.WithPollingTimeout(25*time.Second), chromedp.WithPollingInterval(10*time.Millisecond))(ctx, tg)
			return err
		}))
}
