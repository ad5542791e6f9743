package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections"
)

// TestBrowserMuster is the muster before the first turn (issue #46) in
// chromium. The lobby's form offers it, on by default (48 hours, a bot
// for a silent seat), and a game proposed with the form's defaults asks
// for it. In a game of Ann (English), Bob (French) and Cid (Italian), each
// seat's page, on a phone (390x844) and a desktop (1280x900), shows the
// muster panel in its reader's language with no move to play; axe-core
// finds no serious or critical violation, no page scrolls sideways, and
// each is saved as a screenshot (PBEM_SCREENSHOTS). Ann accepts with one
// click on her phone, Bob declines and then accepts; each panel then says
// so. Cid never answers: at the muster's deadline the scheduler gives his
// seat to a bot, and the game begins: Ann's page shows no panel and her
// turn or the table's, and her history tells that Cid never answered.
func TestBrowserMuster(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	dir := screenshotDir(t)
	e := newPageEnv(t)
	ctx := context.Background()

	lobby := tab(t, root, 1280, 900, false)
	within(t, lobby, 20*time.Second, "lobby", chromedp.Navigate(e.url+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS("#muster")),
		chromedp.SendKeys(chromedp.CSS(`input[name="name1"]`), "Ann"),
		chromedp.SendKeys(chromedp.CSS(`input[name="email1"]`), "ann@example.org"),
		chromedp.SendKeys(chromedp.CSS(`input[name="name2"]`), "Bob"),
		chromedp.SendKeys(chromedp.CSS(`input[name="email2"]`), "bob@example.org"),
		chromedp.SendKeys(chromedp.CSS(`input[name="organiser_email"]`), "ann@example.org"),
		chromedp.ScrollIntoView(chromedp.CSS("#muster")))
	axeClean(t, lobby, src, "lobby")
	screenshot(t, lobby, dir, "muster-lobby-en-1280x900.png")
	within(t, lobby, 20*time.Second, "propose", chromedp.Click(chromedp.CSS("form.lobby button.primary")), chromedp.WaitVisible(chromedp.CSS("#proposed")))
	var raw []byte
	if err := e.pool.QueryRow(ctx, `SELECT request FROM proposals`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	var req play.CreateGame
	if err := json.Unmarshal(raw, &req); err != nil || req.Muster != 48*time.Hour || req.MusterDefault != "bot" {
		t.Fatalf("the game proposed with the form's defaults: muster %s, default %q, %v", req.Muster, req.MusterDefault, err)
	}

	id, _ := musterGame(t, e, "")
	langs := []string{"en", "fr", "it"}
	says := map[string][3]string{ // the panel's title, "will play", the game begins
		"en": {"Will you play?", "will play", "Never answered: Cid."},
		"fr": {"Jouerez-vous\u202f?", "jouera", "N'a jamais répondu\u00a0: Cid."},
		"it": {"Giocherai?", "giocherà", "Non ha mai risposto: Cid."},
	}
	tabs := map[string]context.Context{}
	for _, vp := range phoneAndDesktop {
		for seat, lang := range langs {
			tb := tab(t, root, vp.w, vp.h, vp.mobile)
			what := fmt.Sprintf("muster %s %dx%d", lang, vp.w, vp.h)
			within(t, tb, 20*time.Second, what, chromedp.Navigate(e.url+"/play/"+id+"?token="+url.QueryEscape(tokens.Seat(secret, id, seat, 0))),
				chromedp.WaitVisible(chromedp.CSS("#muster")))
			text := eval[string](t, tb, `document.body.innerText`)
			if !strings.Contains(text, says[lang][0]) || eval[int](t, tb, `document.querySelectorAll("#moves-form").length`) != 0 {
				t.Errorf("%s: the page lacks the panel's %q, or offers moves:\n%s", what, says[lang][0], text)
			}
			fitsAndAxeClean(t, tb, src, what, vp.w)
			screenshot(t, tb, dir, fmt.Sprintf("muster-%s-%dx%d.png", lang, vp.w, vp.h))
			if vp.mobile {
				tabs[lang] = tb // used again below
			} else {
				release(tb)
			}
		}
	}

	within(t, tabs["en"], 20*time.Second, "Ann accepts", chromedp.Click(chromedp.CSS("#muster-yes")), chromedp.WaitVisible(chromedp.CSS(`#live-notices .notice`)))
	within(t, tabs["fr"], 20*time.Second, "Bob declines", chromedp.Click(chromedp.CSS("#muster-no")), chromedp.WaitVisible(chromedp.CSS(`#live-notices .notice`)))
	if text := eval[string](t, tabs["fr"], `document.getElementById("muster").innerText`); !strings.Contains(text, "Bob (vous)\u00a0: ne jouera pas") {
		t.Errorf("Bob's panel after he declined:\n%s", text)
	}
	within(t, tabs["fr"], 20*time.Second, "Bob accepts", chromedp.Click(chromedp.CSS("#muster-yes")), chromedp.WaitVisible(chromedp.CSS(`#live-notices .notice`)))
	for _, lang := range []string{"en", "fr"} {
		text := eval[string](t, tabs[lang], `document.getElementById("muster").innerText`)
		if !strings.Contains(text, says[lang][1]) {
			t.Errorf("%s: the panel after accepting:\n%s", lang, text)
		}
		axeClean(t, tabs[lang], src, lang+" accepted")
		screenshot(t, tabs[lang], dir, "muster-accepted-"+lang+"-390x844.png")
	}
	if mu, err := e.svc.MusterOf(ctx, id); err != nil || strings.Join(mu.Answers, ",") != "accepted,accepted," {
		t.Fatalf("the muster after two clicks: %+v %v", mu, err)
	}

	if r, err := schedulerAt(t, e, time.Now().Add(25*time.Hour)).Tick(ctx); err != nil || r.TimedOut != 1 {
		t.Fatalf("the tick at the muster's deadline: %+v %v", r, err)
	}
	if sm, err := e.svc.Summary(ctx, id); err != nil || sm.Status != projections.StatusActive || sm.Seats[2].Bot != "normal" {
		t.Fatalf("after the muster's deadline: %+v %v", sm, err)
	}
	for _, lang := range langs {
		tb := tabs[lang]
		within(t, tb, 20*time.Second, lang+" begun", chromedp.Navigate(e.url+"/play/"+id), chromedp.WaitVisible(chromedp.CSS("#turn")))
		if n := eval[int](t, tb, `document.querySelectorAll("#muster").length`); n != 0 {
			t.Errorf("%s: the muster panel is still shown after the game began", lang)
		}
		within(t, tb, 20*time.Second, lang+" history", chromedp.Navigate(e.url+"/play/"+id+"/history"), chromedp.WaitVisible(chromedp.CSS("main")))
		if text := eval[string](t, tb, `document.body.innerText`); !strings.Contains(text, says[lang][2]) {
			t.Errorf("%s: the history does not tell %q:\n%s", lang, says[lang][2], text)
		}
		axeClean(t, tb, src, lang+" history")
		screenshot(t, tb, dir, "muster-history-"+lang+"-390x844.png")
	}
}
