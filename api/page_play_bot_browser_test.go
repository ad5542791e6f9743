package api_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/api"
	"pbem/engine/lords"
	"pbem/events/tokens"
)

// TestBrowserBotSeatOnAPhone opens, on a phone (390x844) in English,
// French and Italian, the play page of a person whose seat the organiser
// handed to a bot, on that seat's turn: it says a bot plays the seat and
// is choosing its move, offers no move (no moves form, no "Choose your
// move" in the action bar), keeps the table and the table talk, fits the
// width and has no serious axe-core violation. The screenshots go to
// PBEM_SCREENSHOTS (botseat-play-LANG.png).
func TestBrowserBotSeatOnAPhone(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)
	ctx := context.Background()
	for _, lang := range []string{"en", "fr", "it"} {
		T := func(key string, args ...any) string { return api.PageCatalog.T(lang, key, args...) }
		id := e.createGame(lords.Name, 2, lang, "")
		seat := e.toMove(id)
		if _, err := e.svc.SeatBot(ctx, id, tokens.Admin(secret, id, 0), seat, "normal"); err != nil {
			t.Fatal(err)
		}
		phone := tab(t, root, 390, 844, true)
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
}
