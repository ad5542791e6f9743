package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/engine/lords"
	"pbem/events/tokens"
)

// TestBrowserFirstVisitStyleSheet opens a play link in chromium with a
// cold cache: the page is styled by its inline style sheet under the real
// Content-Security-Policy (allowed by its hash), and the print-media link
// puts the hashed file in the cache, so the next page links it and the
// browser takes it from there, with no request.
func TestBrowserFirstVisitStyleSheet(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	tb := tab(t, root, 360, 740, true)
	// The page's background and header colours come from app.css.
	styled := `getComputedStyle(document.body).backgroundColor === "rgb(246, 244, 239)" &&
		getComputedStyle(document.querySelector("header.top")).backgroundColor === "rgb(18, 35, 61)"`
	within(t, tb, 30*time.Second, "first visit",
		chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, 0, 0)),
		chromedp.WaitVisible(chromedp.CSS("#game")))
	if !eval[bool](t, tb, `document.querySelectorAll("head style").length === 1 && !document.querySelector('link[rel="stylesheet"]:not([media="print"])')`) {
		t.Fatal("the first visit's page does not carry the style sheet inline")
	}
	if !eval[bool](t, tb, styled) {
		t.Fatal("the first visit's page is not styled: the CSP refused its inline style sheet?")
	}
	// Wait for the print-media style sheet to be fetched.
	pctx, cancel := context.WithTimeout(tb, 20*time.Second)
	defer cancel()
	if _, err := chromedp.Run(pctx, chromedp.Poll[bool](`document.querySelector('link[media="print"]').sheet !== null`,
		chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("the print-media style sheet did not load: %v", err)
	}
	within(t, tb, 30*time.Second, "second page",
		chromedp.Navigate(e.url+"/play/"+id+"/history"),
		chromedp.WaitReady(chromedp.CSS("body")))
	if !eval[bool](t, tb, `document.querySelectorAll("style").length === 0 && document.querySelector('head link[rel="stylesheet"]') !== null`) {
		t.Fatal("the second page does not link the style sheet")
	}
	if !eval[bool](t, tb, styled) {
		t.Error("the second page is not styled")
	}
	fromCache := `performance.getEntriesByType("resource").filter(function (r) { return /\/static\/app\.[0-9a-f]{8}\.css$/.test(r.name); })
		.every(function (r) { return r.transferSize === 0; })`
	if !eval[bool](t, tb, fromCache) {
		t.Error("the second page fetched the style sheet again instead of taking it from the cache")
	}
}
