package api_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"pbem/events/tokens"
)

// maxPhonePage is how tall, in CSS pixels, the play page may be for a
// typical turn on a 390x844 phone (issue #43: about 4,000 px before; at
// most about two screens and a half).
const maxPhonePage = 2000

// TestBrowserPlayPageFitsAPhone opens the play page of a typical turn of
// each game (a few moves in, two lines of table talk, the awaited seat's
// first visit on a device whose time zone the browser tells) in en, fr
// and it, on a phone (390x844) and a desktop (1280x900): the phone page
// is at most maxPhonePage tall (document.body.scrollHeight), the
// time-zone question is one closed line, the action bar names the
// decision to make with a link to it, every panel a player needs is still
// on the page (folded ones included), and axe-core finds no serious or
// critical violation. Full-page screenshots go to screenshotDir.
func TestBrowserPlayPageFitsAPhone(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)
	ctx := context.Background()
	for _, g := range bothGames {
		for _, lang := range []string{"en", "fr", "it"} {
			id := e.createGame(g.name, g.players, lang, "")
			e.playToEnd(id, 3, 8)
			for i, line := range []string{"Bonne chance à tous !", "Ready when you are."} {
				if err := e.svc.ChatAs(ctx, id, i%g.players, line, "phone-"+lang+"-"+string(rune('a'+i))); err != nil {
					t.Fatal(err)
				}
			}
			seat := e.toMove(id)
			if seat < 0 {
				t.Fatalf("%s %s: the game ended", g.name, lang)
			}
			link := e.url + "/play/" + id + "?token=" + url.QueryEscape(tokens.Seat(secret, id, seat, 0))
			for _, vp := range phoneAndDesktop {
				name := g.name + "-" + lang + "-" + map[bool]string{true: "phone", false: "desktop"}[vp.mobile]
				tb := tab(t, root, vp.w, vp.h, vp.mobile)
				within(t, tb, 30*time.Second, name,
					chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
						_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Europe/Rome"})
						return err
					}),
					chromedp.Navigate(link),
					chromedp.WaitVisible(chromedp.CSS("#game")),
					chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
						_, err := chromedp.Poll[bool](`document.body.dataset.tz === "Europe/Rome"`, chromedp.WithPollingTimeout(10*time.Second))(ctx, tg)
						return err
					}),
				)
				h := eval[int](t, tb, `document.body.scrollHeight`)
				t.Logf("%s: %d px tall", name, h)
				if vp.mobile && h > maxPhonePage {
					t.Errorf("%s: the play page is %d px tall at %dx%d, more than %d", name, h, vp.w, vp.h, maxPhonePage)
				}
				if open := eval[bool](t, tb, `document.getElementById("zone").open`); open {
					t.Errorf("%s: the time-zone question is open though the device's zone is known", name)
				}
				checkBarNamesDecision(t, tb, name)
				for _, sel := range []string{"#moves-form", "#table-talk", "#catchup", "#h-hand", "#chat-text", "#live-links"} {
					if !eval[bool](t, tb, `!!document.querySelector("`+sel+`")`) {
						t.Errorf("%s: %s is gone from the page", name, sel)
					}
				}
				screenshot(t, tb, shots, "phone-height-"+name+".png")
				for _, v := range axeRun(t, tb, src) {
					var where []string
					for _, n := range v.Nodes {
						b, _ := json.Marshal(n.Target)
						where = append(where, string(b))
					}
					t.Errorf("%s: %s %s: %s at %s", name, v.Impact, v.ID, v.Help, strings.Join(where, " "))
				}
			}
		}
	}
}

// checkBarNamesDecision checks that the action bar of a seat to move
// names the decision it has to make, with a link into the page's moves:
// to the one kind of move's fieldset, whose legend the bar names, or to
// the moves' heading when there are several kinds.
func checkBarNamesDecision(t *testing.T, tb context.Context, name string) {
	t.Helper()
	got := eval[[]string](t, tb, `(() => {
		const a = document.querySelector("#action-bar a.bar-decide");
		if (!a) return ["", "", "", ""];
		const to = document.getElementById(a.hash.slice(1));
		const legend = to && to.querySelector("legend");
		return [a.hash, a.textContent.trim(), to && document.getElementById("moves-form").contains(to) ? "in" : "out", legend ? legend.textContent.trim() : ""];
	})()`)
	href, text, where, legend := got[0], got[1], got[2], got[3]
	switch {
	case href == "" || text == "":
		t.Errorf("%s: the action bar names no decision", name)
	case where != "in":
		t.Errorf("%s: the action bar's link %s does not lead into the moves", name, href)
	case legend != "" && legend != text:
		t.Errorf("%s: the action bar names %q, its link leads to %q", name, text, legend)
	}
}
