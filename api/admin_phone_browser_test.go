package api_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/events/tokens"
)

// TestBrowserAdminBotSeatsOnAPhone opens, on a 390x844 phone, the French
// admin page of a game whose third seat a bot has played since the start
// and whose second seat a bot took over from Bob: only Bob's row offers to
// give the seat back, the bot's says there is no one to give it back to,
// and nothing is wider than the screen. A give-back of the bot's seat sent
// all the same (Bob's form with the bot's seat, as a page older than the
// rule would send) lands on a French refusal that names the seat by its
// player. Screenshots: admin-bot-seats-fr.png, admin-no-person-fr.png,
// admin-bot-seats-en.png (the same page in English).
func TestBrowserAdminBotSeatsOnAPhone(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	id := botSeatsGame(t, e, "fr")
	shots := screenshotDir(t)
	phone := tab(t, root, 390, 844, true)
	within(t, phone, 30*time.Second, "the admin page",
		chromedp.Navigate(e.url+"/admin/"+id+"?token="+url.QueryEscape(tokens.Admin(secret, id, 0))),
		chromedp.WaitVisible(chromedp.CSS("#seats")))
	wide := func(what string) {
		t.Helper()
		if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s: %d pixels wide on a 390-pixel phone", what, w)
		}
	}
	wide("admin page")
	if got := eval[string](t, phone, `Array.from(document.querySelectorAll("#seats .seat-row")).map(function (r) {
		return r.querySelector("th").textContent + ": " + (r.querySelector("input[name=level][value='']") ? "back" : "-"); }).join(", ")`); got != "Ann doit jouer: -, Bob: back, Robot 1: -" { // the seat awaited says so in words
		t.Errorf("the rows that offer to give the seat back: %s", got)
	}
	if note := eval[string](t, phone, `document.querySelector("#seat-2 .seat-acts").textContent.trim()`); note != "Un robot joue cette place depuis le début de la partie\u00a0: il n'y a personne à qui la rendre." {
		t.Errorf("the bot's row says %q", note)
	}
	screenshot(t, phone, shots, "admin-bot-seats-fr.png")

	within(t, phone, 30*time.Second, "a give-back of the bot's seat",
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#seat-1 input[name=level][value='']").form.querySelector("input[name=seat]").value = "2"`),
		chromedp.Click(chromedp.CSS(`#seat-1 .seat-acts form.inline button`)),
		chromedp.WaitVisible(chromedp.CSS(`p[role=alert]`)))
	wide("refusal")
	if got := eval[string](t, phone, `document.querySelector("main").innerText`); !strings.Contains(got, "Il n'y a personne à qui rendre cette place.") ||
		!strings.Contains(got, "Robot 1") || strings.Contains(got, "seat 2") {
		t.Errorf("the refusal reads:\n%s", got)
	}
	screenshot(t, phone, shots, "admin-no-person-fr.png")

	within(t, phone, 30*time.Second, "the admin page in English",
		chromedp.Navigate(e.url+"/admin/"+id+"?lang=en"), chromedp.WaitVisible(chromedp.CSS("#seats")))
	wide("English admin page")
	screenshot(t, phone, shots, "admin-bot-seats-en.png")
}
