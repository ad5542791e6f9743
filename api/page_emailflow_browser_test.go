package api_test

import (
	"context"
	"net/mail"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"pbem/notify/smtpsink"
)

// TestBrowserEmailLinkToConfirmedMove is a turn of both games from the
// invitation to the confirmed move, on a phone (390x844) in chromium: the
// invitation goes over SMTP (the real notify worker), its HTML is shown,
// its play link opened; the page asks the time zone it found; a card is
// tapped, one of its moves (one that asks for a confirmation when the card
// has one), then the action bar's confirmation; the move is in the game and
// the bar says so on screen. In English; in French and Italian too when
// PBEM_SCREENSHOTS is set (the screenshots of issue #30: one per step,
// named game-lang-step.png).
func TestBrowserEmailLinkToConfirmedMove(t *testing.T) {
	root := startBrowser(t)
	shots := screenshotDir(t)
	langs := []string{"en"}
	if os.Getenv("PBEM_SCREENSHOTS") != "" {
		langs = append(langs, "fr", "it")
	}
	zones := map[string]string{"en": "Europe/London", "fr": "Europe/Paris", "it": "Europe/Rome"}
	for _, lang := range langs {
		for _, g := range bothGames {
			t.Run(g.name+"-"+lang, func(t *testing.T) {
				shot := func(tb context.Context, step string) {
					viewportShot(t, tb, shots, g.name+"-"+lang+"-"+step+".png")
				}
				// A server of its own: only this game's emails are pending.
				e := newPageEnv(t)
				id := e.createGame(g.name, g.players, lang, "")
				mover := e.toMove(id)
				want := []string{"ann", "bob", "cid"}[mover] + "@example.org"
				var letter smtpsink.Parsed
				for _, m := range deliverOutbox(t, e.pool, e.url, e.pendingMails(id)) {
					p, err := smtpsink.Parse(m.Data)
					if err != nil {
						t.Fatal(err)
					}
					if to, err := mail.ParseAddress(p.Header.Get("To")); err == nil && to.Address == want && strings.Contains(p.Text, e.url+"/play/") {
						letter = p
					}
				}
				i := strings.Index(letter.Text, e.url+"/play/")
				if i < 0 || letter.HTML == "" {
					t.Fatalf("no invitation with a play link (and HTML) to %s", want)
				}
				link := strings.Fields(letter.Text[i:])[0]

				tb := tab(t, root, 390, 844, true)
				within(t, tb, 20*time.Second, "the email",
					chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
						_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zones[lang]})
						return err
					}),
					chromedp.Navigate("about:blank"),
					chromedp.Evaluate[chromedp.Void](`document.open(); document.write(`+jsString(letter.HTML)+`); document.close()`),
				)
				shot(tb, "1-email")
				within(t, tb, 30*time.Second, "the link", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("#game")),
					chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
						_, err := chromedp.Poll[bool](`document.body.dataset.tz === "`+zones[lang]+`" && !!document.querySelector(".pick > summary")`,
							chromedp.WithPollingTimeout(20*time.Second))(ctx, tg)
						return err
					}))
				if v := eval[string](t, tb, `document.getElementById("zone-input").value`); v != zones[lang] {
					t.Errorf("the page asks about zone %q, want %s", v, zones[lang])
				}
				shot(tb, "2-page")
				before := e.version(id)

				// The card: the first with a move to confirm, else the first.
				card := eval[int](t, tb, `(function () {
  var picks = Array.from(document.querySelectorAll(".pick"));
  var i = picks.findIndex(function (d) { return !!d.querySelector(".card-moves button[data-final]"); });
  return i < 0 ? 0 : i;
})()`)
				sel := `document.querySelectorAll(".pick")[` + strconv.Itoa(card) + `]`
				within(t, tb, 20*time.Second, "tap a card",
					chromedp.Evaluate[chromedp.Void](sel+`.scrollIntoView({block: "center"})`),
					chromedp.Evaluate[chromedp.Void](sel+`.querySelector("summary").click()`),
					chromedp.WaitVisible(chromedp.CSS(".pick[open] .card-moves button")))
				shot(tb, "3-card")
				within(t, tb, 20*time.Second, "tap its move",
					chromedp.Evaluate[chromedp.Void](`document.getElementById("action-bar").dataset.old = "1"`),
					chromedp.Evaluate[chromedp.Void](`(document.querySelector(".pick[open] .card-moves button[data-final]") || document.querySelector(".pick[open] .card-moves button")).click()`))
				c := waitControl(t, tb, "after the tap", "")
				inViewport(t, c, "after the tap")
				shot(tb, "4-tapped")
				if c.ID == "confirm-move" {
					within(t, tb, 20*time.Second, "confirm",
						chromedp.Evaluate[chromedp.Void](`document.getElementById("action-bar").dataset.old = "1"`),
						chromedp.Evaluate[chromedp.Void](`document.getElementById("confirm-move").click()`))
					c = waitControl(t, tb, "after the confirmation", "confirm-move")
					inViewport(t, c, "after the confirmation")
					shot(tb, "5-played")
				}
				if e.version(id) <= before {
					t.Fatalf("the move is not in the game (version %d)", e.version(id))
				}
			})
		}
	}
}
