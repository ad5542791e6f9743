package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
)

// TestBrowserCatchUpFollowsLiveWithoutAJump: seat A's page is open,
// scrolled down, with a half-written chat line and the focus on a link of
// "Since your last turn"; the other seats play until it is A's turn. A's
// page shows their moves in "Since your last turn" without a navigation:
// the scroll position, the focus and the chat line are kept, the changed
// cards are marked, and the tab title says it is A's turn. Lords of
// Scotland on a desktop (English) and a phone (French), Swords and
// Bagpipes on a phone (Italian).
func TestBrowserCatchUpFollowsLiveWithoutAJump(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	for _, tc := range []struct {
		game, lang string
		// The tab title while others play starts with waiting (the words
		// before the name, elided in French) and holds "NAME – GAME";
		// on A's turn it starts with yours.
		waiting, yours string
		n              int
		w, h           int64
		phone          bool
	}{
		{"lords-of-scotland", "en", "Waiting for ", "Your turn – Lords of Scotland", 2, 1000, 500, false},
		{"lords-of-scotland", "fr", "En attente d", "À vous de jouer – Lords of Scotland", 3, 360, 740, true},
		{"swords-and-bagpipes", "it", "In attesa di ", "Tocca a te – Swords and Bagpipes", 3, 360, 740, true},
	} {
		t.Run(tc.game+"-"+tc.lang, func(t *testing.T) {
			ctx := context.Background()
			id := e.createGame(tc.game, tc.n, tc.lang, "")
			names := []string{"Ann", "Bob", "Cid"}
			first := e.toMove(id)
			aSeat := (first + 1) % tc.n
			a := tab(t, root, tc.w, tc.h, tc.phone)
			within(t, a, 20*time.Second, "A's page",
				chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Europe/Rome"})
					return err
				}),
				chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, aSeat, 0)),
				chromedp.WaitVisible(chromedp.CSS("#catchup")),
				// The script stores the time zone (once, with a reload): wait for it.
				chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := chromedp.Poll[bool](`document.body.dataset.tz === "Europe/Rome" && !!document.getElementById("catchup")`,
						chromedp.WithPollingTimeout(10*time.Second))(ctx, tg)
					return err
				}),
			)
			gameName := strings.TrimPrefix(tc.yours[strings.Index(tc.yours, "– "):], "– ")
			if title := eval[string](t, a, `document.title`); !strings.HasPrefix(title, tc.waiting) || !strings.Contains(title, names[first]+" – "+gameName) {
				t.Errorf("A's title while %s plays: %q", names[first], title)
			}
			v0 := e.version(id)
			y := eval[int](t, a, `document.getElementById("chat-text").value = "half-written";
				document.querySelector("#catchup a").focus({preventScroll: true});
				window.pbemSamePage = true;
				window.scrollTo(0, 300); window.scrollY`)
			if y != 300 {
				t.Fatalf("the page scrolled to %d, not 300 (too short?)", y)
			}

			// The others play until A is awaited alone, face-up where they
			// can (so that A sees the cards).
			for n := 0; ; n++ {
				sm, err := e.svc.Summary(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				seat := -1
				for _, s := range sm.ToMove {
					if s != aSeat {
						seat = s
					}
				}
				if seat < 0 {
					break
				}
				if n > 60 {
					t.Fatal("the others' turns do not end")
				}
				v, err := playtest.SeatView(ctx, e.svc, secret, id, seat)
				if err != nil {
					t.Fatal(err)
				}
				mv, _ := json.Marshal(v.LegalMoves[0])
				for _, m := range v.LegalMoves {
					if b, _ := json.Marshal(m); strings.Contains(string(b), `"face_up":true`) {
						mv = b
						break
					}
				}
				if _, err := e.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
					t.Fatal(err)
				}
			}
			v1 := e.version(id)
			if v1 == v0 {
				t.Fatal("nobody played")
			}

			within(t, a, 20*time.Second, "live update",
				chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := chromedp.Poll[bool](fmt.Sprintf(`!!document.querySelector('#catchup li[data-v="%d"]') && document.title.startsWith(%q)`, v1, tc.yours),
						chromedp.WithPollingTimeout(15*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))(ctx, tg)
					return err
				}),
			)
			if !eval[bool](t, a, `window.pbemSamePage === true`) {
				t.Fatal("A's page was reloaded")
			}
			if got := eval[int](t, a, `window.scrollY`); got != y {
				t.Errorf("the scroll position moved from %d to %d", y, got)
			}
			if turn := eval[string](t, a, `document.getElementById("turn").className`); turn != "turn yours" {
				t.Errorf("A's turn line is %q on its turn", turn)
			}
			if focus := eval[string](t, a, `document.activeElement.closest("#catchup") ? document.activeElement.getAttribute("href") : document.activeElement.tagName`); focus != "/play/"+id+"/history" {
				t.Errorf("the focus went to %q", focus)
			}
			if chat := eval[string](t, a, `document.getElementById("chat-text").value`); chat != "half-written" {
				t.Errorf("the chat line became %q", chat)
			}
			// The others' lines, as A's redacted history tells them, are all
			// there, marked as new.
			h, err := e.svc.History(ctx, id, tokens.Seat(secret, id, aSeat, 0))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range h.Events {
				if r.Version <= v0 {
					continue
				}
				got := eval[string](t, a, fmt.Sprintf(`(function(li){ return li ? li.className + "|" + li.textContent : "none"; })(document.querySelector('#catchup li[data-v="%d"]'))`, r.Version))
				if got != "fresh-line|"+r.Summary {
					t.Errorf("v%d in \"Since your last turn\": %q, want %q", r.Version, got, "fresh-line|"+r.Summary)
				}
			}
			marked := eval[int](t, a, `document.querySelectorAll(".changed .changed-tag").length`)
			if marked == 0 {
				t.Error("nothing changed is marked on A's page")
			}
			if n := eval[int](t, a, `document.querySelectorAll("form.moves button").length`); n == 0 {
				t.Error("A's page shows no moves on its turn")
			}
			if w := eval[int](t, a, `document.documentElement.scrollWidth`); w > int(tc.w) {
				t.Errorf("the page is %d px wide (viewport %d)", w, tc.w)
			}
			t.Logf("%d lines after v%d, %d cards marked", v1-v0, v0, marked)
			if dir := os.Getenv("PBEM_SCREENSHOTS"); dir != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				within(t, a, 10*time.Second, "top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.getElementById("catchup").offsetTop - 10)`))
				screenshot(t, a, dir, "catchup-live-"+tc.game+"-"+tc.lang+".png")
			}
		})
	}
}
