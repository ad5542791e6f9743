package api_test

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
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
//
// It took in TestBrowserAdminRevoke, which opened the same admin page on
// the same phone in the same languages, and keeps its assertions
// (adminRevoke, on this journey's game): the admin page's revocation
// control (a box to tick, then the button) has its controls labelled;
// once used, the page says a new link was emailed; the old link's page
// then says it was replaced by a newer one, in the browser's language
// (screenshots admin-revoke-form-LANG.png, admin-revoked-LANG.png,
// admin-old-link-LANG.png).
//
// It took in TestBrowserBotSeatOnAPhone, which opened the same bot seat's
// play page on the same phone in the same languages, and keeps its
// assertions (botSeatOnTurn): on the turn of a person's seat the
// organiser handed to a bot, the page says a bot plays the seat and is
// choosing its move, offers no move (no moves form, no move button, no
// "Your turn", no "Choose your move" in the action bar), keeps the table
// and the table talk, fits the width, labels its controls and has no
// serious axe-core violation (screenshots botseat-play-LANG.png and
// botseat-play-LANG-below.png).
func TestBrowserWordsOnAPhone(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
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

		adminRevoke(t, e, phone, shots, lang, id)
		botSeatOnTurn(t, e, phone, src, shots, lang)
		release(phone)
	}
}

// adminRevoke replaces the admin link of game id on phone
// (TestBrowserWordsOnAPhone): the admin page's control (a box to tick,
// then the button), the page that says a new link was emailed, and the
// old link's page afterwards.
func adminRevoke(t *testing.T, e *pageEnv, phone context.Context, shots, lang, id string) {
	t.Helper()
	says := map[string][2]string{
		"en": {"A new one was emailed", "replaced by a newer one"},
		"fr": {"Un nouveau a été envoyé", "remplacé par un plus récent"},
		"it": {"Uno nuovo è stato inviato", "sostituito da uno più recente"},
	}
	link := e.url + "/admin/" + id + "?token=" + url.QueryEscape(tokens.Admin(secret, id, 0))
	within(t, phone, 30*time.Second, lang+" admin page",
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS("#revoke")),
		chromedp.ScrollIntoView(chromedp.CSS("#revoke")),
	)
	if unlabelled := eval[int](t, phone, a11yProblems); unlabelled != 0 {
		t.Errorf("%s: the admin page has %d controls without a label or buttons outside forms", lang, unlabelled)
	}
	screenshot(t, phone, shots, "admin-revoke-form-"+lang+".png")
	within(t, phone, 30*time.Second, lang+" revoke",
		chromedp.Click(chromedp.CSS(`#revoke input[name="confirm"]`)),
		chromedp.Click(chromedp.CSS(`#revoke button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`p.notice[role="status"]`)),
	)
	if got := eval[string](t, phone, `document.body.innerText`); !strings.Contains(got, says[lang][0]) {
		t.Fatalf("%s: the page after the revocation says:\n%s", lang, got)
	}
	screenshot(t, phone, shots, "admin-revoked-"+lang+".png")
	// An error page is in the browser's language (it may not know the
	// game's): ?lang= stands for the organiser's browser.
	within(t, phone, 30*time.Second, lang+" old link",
		chromedp.Navigate(link+"&lang="+lang),
		chromedp.WaitVisible(chromedp.CSS(`p.notice.bad`)),
	)
	if got := eval[string](t, phone, `document.body.innerText`); !strings.Contains(got, says[lang][1]) {
		t.Fatalf("%s: the old link's page says:\n%s", lang, got)
	}
	screenshot(t, phone, shots, "admin-old-link-"+lang+".png")
}

// botSeatOnTurn creates a game of Lords of Scotland in lang, hands the
// seat to move to a bot and checks its person's play page on phone, on
// the bot's turn (TestBrowserWordsOnAPhone).
func botSeatOnTurn(t *testing.T, e *pageEnv, phone context.Context, src, shots, lang string) {
	t.Helper()
	T := func(key string, args ...any) string { return api.PageCatalog.T(lang, key, args...) }
	id := e.createGame(lords.Name, 2, lang, "")
	seat := e.toMove(id)
	if _, err := e.svc.SeatBot(context.Background(), id, tokens.Admin(secret, id, 0), seat, "normal"); err != nil {
		t.Fatal(err)
	}
	within(t, phone, 20*time.Second, lang+" bot seat",
		chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, seat, 0)),
		chromedp.WaitVisible(chromedp.CSS("#live-table")))
	shot(t, phone, filepath.Join(shots, "botseat-play-"+lang+".png"))
	within(t, phone, 10*time.Second, lang+" scroll", chromedp.ScrollIntoView(chromedp.CSS("#catchup")))
	shot(t, phone, filepath.Join(shots, "botseat-play-"+lang+"-below.png"))
	text := eval[string](t, phone, `document.body.innerText`)
	for _, want := range []string{T("play.you_are_bot", []string{"Ann", "Bob"}[seat]), T("play.bot_turn"), T("play.chat")} {
		if !strings.Contains(text, want) {
			t.Errorf("%s: the page does not say %q:\n%s", lang, want, text)
		}
	}
	if strings.Contains(text, T("play.your_turn")) || strings.Contains(text, T("bar.choose")) {
		t.Errorf("%s: the page offers the bot's turn to the person:\n%s", lang, text)
	}
	if n := eval[int](t, phone, `document.querySelectorAll("#moves-form, button[name=move], .playable").length`); n != 0 {
		t.Errorf("%s: %d move controls on the bot seat's page", lang, n)
	}
	if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("%s: %d px wide on a 390 px phone", lang, w)
	}
	if n := eval[int](t, phone, a11yProblems); n != 0 {
		t.Errorf("%s: %d controls without a label or buttons outside forms", lang, n)
	}
	for _, v := range axeRun(t, phone, src) {
		b, _ := json.Marshal(v.Nodes)
		t.Errorf("%s: axe %s %s: %s at %s", lang, v.Impact, v.ID, v.Help, b)
	}
}
