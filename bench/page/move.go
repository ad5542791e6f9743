package main

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/chromedp/chromedp"
)

// A move's round trip, from the click on a move button to the updated
// page drawn. The page gets there one of two ways, and the bench measures
// whichever the server and script take (so that it can compare builds):
//
//   - a swap: the script posts the form and swaps the answer's regions
//     into the same document (api/page_fetch.go). The round trip ends
//     with the first frame after the swap: a MutationObserver on #game
//     notes the swap, then requestAnimationFrame and a task after it
//     mark the frame drawn (the document has painted before: there is no
//     new first contentful paint to wait for);
//   - a navigation: the form posts, is redirected, and a new document
//     loads. The round trip ends with its first contentful paint.

// clickMoveJS watches #game for the swap, notes the time (in the page and,
// for a new document, in sessionStorage) and presses the page's first move
// button that plays at once; if every move asks for a confirmation first
// (it cannot be taken back), the first one: its round trip ends with the
// confirmation shown.
const clickMoveJS = `(function () {
  var b = document.querySelector('button[type="submit"][name="move"]:not([data-final])') ||
    document.querySelector('button[type="submit"][name="move"]');
  var game = document.getElementById("game");
  if (!b || !game) { return false; }
  new MutationObserver(function (records, observer) {
    observer.disconnect();
    var swapped = performance.now();
    requestAnimationFrame(function () {
      setTimeout(function () { window.pbemBenchSwap = {swapped: swapped, drawn: performance.now()}; }, 0);
    });
  }).observe(game, {childList: true, subtree: true, attributes: true});
  window.pbemBenchClick = performance.now();
  sessionStorage.setItem("pbem_bench_t0", String(performance.timeOrigin + window.pbemBenchClick));
  b.click();
  return true;
})()`

// movedJS is the round trip once the updated page is drawn ("" before):
// how it came (swap or navigation), the ms from the click to the page
// drawn and to its load event end (the same for a swap), and its URL.
const movedJS = `(function () {
  var s = window.pbemBenchSwap, url = location.pathname + location.search;
  if (s) {
    var d = s.drawn - window.pbemBenchClick;
    return JSON.stringify({how: "swap", drawn: d, load: d, url: url});
  }
  var t0 = +(sessionStorage.getItem("pbem_bench_t0") || 0);
  var f = performance.getEntriesByName("first-contentful-paint")[0];
  var n = performance.getEntriesByType("navigation")[0];
  if (window.pbemBenchClick !== undefined || performance.timeOrigin < t0 || document.readyState !== "complete" || !f || !n || !n.loadEventEnd) { return ""; }
  return JSON.stringify({how: "navigation", drawn: performance.timeOrigin + f.startTime - t0,
    load: performance.timeOrigin + n.loadEventEnd - t0, url: url});
})()`

// moved is a move's round trip (movedJS).
type moved struct {
	How   string  `json:"how"`
	Drawn float64 `json:"drawn"`
	Load  float64 `json:"load"`
	URL   string  `json:"url"`
}

// waitMoved polls the tab until the page updated by the move clicked
// (clickMoveJS) is drawn, and returns the round trip.
func waitMoved(ctx context.Context) (moved, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		s, err := chromedp.Run(c, chromedp.Evaluate[string](movedJS))
		cancel()
		if err == nil && s != "" {
			var m moved
			err := json.Unmarshal([]byte(s), &m)
			return m, err
		}
		time.Sleep(10 * time.Millisecond)
	}
	return moved{}, errors.New("the page did not update within 30 s of the move")
}

// swapTimelineJS describes a swap: the click, each request it made (the
// form's post) and the swap and frame after it, in ms from the click.
const swapTimelineJS = `(function () {
  var s = window.pbemBenchSwap, c = window.pbemBenchClick, ms = Math.round, out = "swap:";
  performance.getEntriesByType("resource").forEach(function (x) {
    if (x.startTime >= c && x.name.indexOf("/events") < 0) {
      out += " " + x.initiatorType + " " + x.name.replace(/^.*\/play\/[^\/?]*/, "") + " " + ms(x.startTime - c) + "-" +
        ms(x.responseStart - c) + "-" + ms(x.responseEnd - c) + " (" + x.transferSize + " B),";
    }
  });
  return out + " swapped " + ms(s.swapped - c) + ", drawn " + ms(s.drawn - c);
})()`

// moveTimeline describes how the move's page came: the swap's
// (swapTimelineJS) or the new document's (timelineJS).
func moveTimeline(tab context.Context, m moved) string {
	expr := timelineJS
	if m.How == "swap" {
		expr = swapTimelineJS
	}
	s, err := evalWithin[string](tab, expr)
	if err != nil {
		return err.Error()
	}
	return s
}
