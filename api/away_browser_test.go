package api_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/engine/lords"
	"pbem/events/tokens"
)

// TestBrowserAwayForm opens My games' away section in chromium, on a
// phone (390x844) and a desktop (1280x900), in English, French and
// Italian: the form (the day you are back), the away going on (what it
// does in the game, the "I am back" button), and a refused day with its
// reason. Each state passes axe-core (no serious or critical violation),
// does not scroll sideways and is saved as a screenshot (PBEM_SCREENSHOTS);
// each away and back is recorded in the game (pbem.away, pbem.back).
func TestBrowserAwayForm(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	dir := screenshotDir(t)
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame(lords.Name, 2, "en", "")
	rounds := 0
	for _, vp := range phoneAndDesktop {
		for _, lang := range []string{"en", "fr", "it"} {
			tb := tab(t, root, vp.w, vp.h, vp.mobile)
			if err := e.svc.RequestSignin(ctx, "ann@example.org", lang); err != nil {
				t.Fatal(err)
			}
			var sid string
			if err := e.pool.QueryRow(ctx, `SELECT id FROM signin_links WHERE email = 'ann@example.org' ORDER BY created_at DESC, id LIMIT 1`).Scan(&sid); err != nil {
				t.Fatal(err)
			}
			size := fmt.Sprintf("%s %dx%d", lang, vp.w, vp.h)
			within(t, tb, 20*time.Second, "sign in "+size, chromedp.Navigate(e.url+"/signin/"+tokens.Signin(secret, sid)+"?lang="+lang),
				chromedp.Click(chromedp.CSS("#signin-use")), chromedp.WaitVisible(chromedp.CSS("#go-away")))
			within(t, tb, 20*time.Second, "my games "+size, chromedp.Navigate(e.url+"/me?lang="+lang+"#away"), chromedp.WaitVisible(chromedp.CSS("#go-away")))
			fitsAndAxeClean(t, tb, src, "away form "+size, vp.w)
			screenshot(t, tb, dir, fmt.Sprintf("away-form-%s-%dx%d.png", lang, vp.w, vp.h))

			// A day past, past the form's own check: the page says why.
			past := e.svc.Now().AddDate(0, 0, -2).Format(time.DateOnly)
			eval[bool](t, tb, `document.getElementById('away-until').removeAttribute('min'); document.getElementById('away-until').value = '`+past+`'; true`)
			within(t, tb, 20*time.Second, "a past day "+size, chromedp.Click(chromedp.CSS("#go-away")), chromedp.WaitVisible(chromedp.CSS("#away-error")))
			fitsAndAxeClean(t, tb, src, "away refused "+size, vp.w)
			if got := eval[string](t, tb, `document.documentElement.lang`); got != lang {
				t.Errorf("away refused %s: the page is in %q", size, got)
			}
			screenshot(t, tb, dir, fmt.Sprintf("away-refused-%s-%dx%d.png", lang, vp.w, vp.h))

			day := e.svc.Now().AddDate(0, 0, 5).Format(time.DateOnly)
			within(t, tb, 20*time.Second, "away "+size, chromedp.SetValue(chromedp.CSS("#away-until"), day),
				chromedp.Click(chromedp.CSS("#go-away")), chromedp.WaitVisible(chromedp.CSS("#back")))
			fitsAndAxeClean(t, tb, src, "away on "+size, vp.w)
			if got := eval[string](t, tb, `document.documentElement.lang`); got != lang {
				t.Errorf("away on %s: the page after the form is in %q", size, got)
			}
			screenshot(t, tb, dir, fmt.Sprintf("away-on-%s-%dx%d.png", lang, vp.w, vp.h))
			within(t, tb, 20*time.Second, "back "+size, chromedp.Click(chromedp.CSS("#back")), chromedp.WaitVisible(chromedp.CSS("#go-away")))
			rounds++
			release(tb)
		}
	}
	var aways, backs int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE type = 'pbem.away'), count(*) FILTER (WHERE type = 'pbem.back') FROM events WHERE stream = $1`, id).Scan(&aways, &backs); err != nil {
		t.Fatal(err)
	}
	if aways != rounds || backs != rounds {
		t.Fatalf("%d aways and %d backs recorded, want %d of each", aways, backs, rounds)
	}
}
