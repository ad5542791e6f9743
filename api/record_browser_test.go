package api_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
)

// TestBrowserRecordPages opens the pages of the records in chromium, on a
// phone (390x844) and a desktop (1280x900), in English, French and
// Italian: My games with Ann's record, the leaderboard she chose to be
// on, a finished game's page with the ratings before and after, and the
// organiser's confirmation page telling an invited address's
// reliability. axe-core finds no serious or critical violation, no page
// scrolls sideways, and each is saved as a screenshot
// (PBEM_SCREENSHOTS) to look at.
func TestBrowserRecordPages(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	dir := screenshotDir(t)
	e := newPageEnv(t)
	ctx := context.Background()
	var ended string
	for i := range 2 {
		ended = e.createGame(lords.Name, 2, "en", "")
		e.playToEnd(ended, uint64(5+i), 5000)
	}
	if _, err := e.svc.RefreshRecords(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetListed(ctx, sessionOf(t, e, "ann@example.org"), true); err != nil {
		t.Fatal(err)
	}
	p, err := e.svc.Propose(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name,
		Language: "en", Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Zoe", Email: "zoe@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
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
			within(t, tb, 20*time.Second, "sign in", chromedp.Navigate(e.url+"/signin/"+tokens.Signin(secret, sid)+"?lang="+lang),
				chromedp.Click(chromedp.CSS("#signin-use")), chromedp.WaitVisible(chromedp.CSS("#record")))
			within(t, tb, 20*time.Second, "seat link", chromedp.Navigate(e.url+"/play/"+ended+"?token="+url.QueryEscape(tokens.Seat(secret, ended, 0, 0))),
				chromedp.WaitVisible(chromedp.CSS("main")))
			pages := []struct{ name, path, wait string }{
				{"mygames", "/me?lang=" + lang, "#record"},
				{"leaderboard", "/leaderboards/" + lords.Name + "?lang=" + lang, "table.leaderboard"},
				{"finished", "/play/" + ended + "?lang=" + lang, "#ratings"},
				{"confirm", "/confirm/" + tokens.Confirm(secret, p.ID) + "?lang=" + lang, ".reliability"},
			}
			for _, pg := range pages {
				what := fmt.Sprintf("%s %s %dx%d", pg.name, lang, vp.w, vp.h)
				within(t, tb, 20*time.Second, what, chromedp.Navigate(e.url+pg.path), chromedp.WaitVisible(chromedp.CSS(pg.wait)))
				fitsAndAxeClean(t, tb, src, what, vp.w)
				screenshot(t, tb, dir, fmt.Sprintf("record-%s-%s-%dx%d.png", pg.name, lang, vp.w, vp.h))
			}
			release(tb)
		}
	}
}
