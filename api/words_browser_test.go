package api_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/api"
	"pbem/engine/lords"
	"pbem/events/tokens"
)

// TestBrowserWordsOnAPhone opens on a phone (390x844), in English, French
// and Italian, the pages issue #31's words changed: the organiser's
// confirmation page with its recap, the lobby refusing a duplicate
// address, the email preference page (served by the mail routes alone),
// the history of a game after a replacement and a bot hand-off, the play
// page of the seat the bot plays, the admin page and a forged link's page.
// Each fits the phone's width, labels its controls and says what it
// should; the screenshots go to PBEM_SCREENSHOTS.
func TestBrowserWordsOnAPhone(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	m := newMailEnv(t, false)
	shots := screenshotDir(t)
	ctx := context.Background()
	for _, lang := range []string{"en", "fr", "it"} {
		cat := api.PageCatalog
		phone := tab(t, root, 390, 844, true)
		check := func(name, want string) {
			t.Helper()
			if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
				t.Errorf("%s %s: %d px wide on a 390 px phone", lang, name, w)
			}
			if n := eval[int](t, phone, a11yProblems); n != 0 {
				t.Errorf("%s %s: %d controls without a label or buttons outside forms", lang, name, n)
			}
			if text := eval[string](t, phone, `document.body.innerText`); !strings.Contains(text, want) {
				t.Errorf("%s %s: the page does not say %q:\n%s", lang, name, want, text)
			}
			screenshot(t, phone, shots, "words-"+name+"-"+lang+".png")
		}
		look := func(name, path, sel, want string) {
			t.Helper()
			within(t, phone, 20*time.Second, name, chromedp.Navigate(path), chromedp.WaitVisible(chromedp.CSS(sel)))
			check(name, want)
		}

		// The lobby: one address for two players.
		within(t, phone, 20*time.Second, "lobby",
			chromedp.Navigate(e.url+"/?lang="+lang),
			chromedp.WaitVisible(chromedp.CSS("form.lobby")),
			chromedp.SendKeys(chromedp.CSS(`input[name="name1"]`), "Ann"),
			chromedp.SendKeys(chromedp.CSS(`input[name="email1"]`), "ann@example.org"),
			chromedp.SendKeys(chromedp.CSS(`input[name="name2"]`), "Bob"),
			chromedp.SendKeys(chromedp.CSS(`input[name="email2"]`), "Ann@example.org"),
			chromedp.SendKeys(chromedp.CSS(`input[name="organiser_email"]`), "ann@example.org"),
			chromedp.Click(chromedp.CSS("form.lobby button.primary")),
			chromedp.WaitVisible(chromedp.CSS(`input[name="email2"][aria-invalid="true"]`)),
		)
		check("lobby-duplicate", cat.T(lang, "lobby.err.email_twice", "Ann"))

		// The confirmation page of a game proposed with a bot.
		b, form := lobbyIn(t, e, lang)
		form.Set("players", "3")
		form.Set("name3", "Robo")
		form.Set("kind3", "normal")
		form.Set("lang2", map[string]string{"en": "fr", "fr": "it", "it": "en"}[lang])
		if p := b.post("/games", form); p.Status != 202 {
			t.Fatalf("%s: propose: %d", lang, p.Status)
		}
		var pid string
		if err := e.pool.QueryRow(ctx, `SELECT id FROM proposals ORDER BY created_at DESC LIMIT 1`).Scan(&pid); err != nil {
			t.Fatal(err)
		}
		look("confirm", e.url+"/confirm/"+tokens.Confirm(secret, pid)+"?lang="+lang, "#recap", cat.T(lang, "confirm.recap"))

		// The preference page.
		look("preferences", m.url+"/mail/unsubscribe?token="+url.QueryEscape(tokens.Unsubscribe(secret, "ann@example.org"))+"&lang="+lang,
			"form.prefs", cat.T(lang, "prefs.title"))

		// A game after a replacement and a bot hand-off.
		id := e.createGame(lords.Name, 3, lang, "")
		adm := tokens.Admin(secret, id, 0)
		e.playSome(id, 2, 4)
		if _, err := e.svc.ReplacePlayer(ctx, id, adm, 2, "Zoé", "zoe@example.org"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SeatBot(ctx, id, adm, 1, "normal"); err != nil {
			t.Fatal(err)
		}
		e.playSomeWithBots(id, 8)
		look("play-bot-seat", e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, 1, 0), "main", cat.T(lang, "play.you_are_bot", "Bob"))
		look("history", e.url+"/play/"+id+"/history", ".timeline", cat.T(lang, "history.by_organiser"))
		look("admin", e.url+"/admin/"+id+"?token="+adm, "main", cat.T(lang, "admin.status", cat.T(lang, "status.active")))
		look("bad-link", e.url+"/play/"+id+"?token=forged&lang="+lang, "main", cat.T(lang, "err.unauthorized"))
	}
}
