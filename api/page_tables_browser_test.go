package api_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/api"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/tokens"
	notifypg "pbem/notify/postgres"
)

// tablesFit counts what does not fit a phone among the page's tables: a
// table wider than its box (which then scrolls sideways) and, for a
// table that stacks, a figure without its column's name (data-label) or
// a table without its header row (which screen readers read).
const tablesFit = `Array.from(document.querySelectorAll("table")).filter(function (t) {
  var box = t.parentElement;
  return t.scrollWidth > box.clientWidth || box.scrollWidth > box.clientWidth ||
    t.classList.contains("stack") && (t.querySelectorAll("thead th").length === 0 ||
      Array.from(t.querySelectorAll("tbody td")).some(function (td) { return !td.dataset.label; }));
}).length`

// TestBrowserTablesFitAPhone opens on a phone (390x844), in English,
// French and Italian, the admin page of a game with failed emails (from
// the real outbox: one given up with a long SMTP answer, one waiting for
// its next try) and the audit pages of a finished Lords of Scotland and
// Swords and Bagpipes game, with their round-by-round tables, and the
// play page of the finished game, with the same table. No table scrolls
// sideways: each row is a block, each figure says its column's name, the
// header row stays for screen readers; axe-core finds nothing serious.
// The screenshots go to PBEM_SCREENSHOTS (tables-*.png).
func TestBrowserTablesFitAPhone(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	e := newPageEnv(t)
	hs := httptest.NewServer(api.New(api.Config{Service: e.svc, Pages: &api.PageConfig{Service: e.svc, Secret: secret,
		Notify: e.store.Notify, Poll: time.Second, Failed: notifypg.NewOutbox(e.pool)}}))
	t.Cleanup(hs.Close)
	shots := screenshotDir(t)
	ctx := context.Background()
	for _, lang := range []string{"en", "fr", "it"} {
		phone := tab(t, root, 390, 844, true)
		// look opens link, shows the table sel and checks the page.
		look := func(name, link, sel string) {
			t.Helper()
			within(t, phone, 30*time.Second, lang+" "+name, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(sel)),
				chromedp.ScrollIntoView(chromedp.CSS(sel)))
			shot(t, phone, filepath.Join(shots, "tables-"+name+"-"+lang+".png"))
			if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
				t.Errorf("%s %s: %d px wide on a 390 px phone", lang, name, w)
			}
			if !eval[bool](t, phone, `document.querySelector(`+strconv.Quote(sel)+`).classList.contains("stack")`) {
				t.Errorf("%s %s: the table %s does not stack on a phone", lang, name, sel)
			}
			if n := eval[int](t, phone, tablesFit); n != 0 {
				t.Errorf("%s %s: %d tables scroll sideways or lack a label", lang, name, n)
			}
			for _, v := range axeRun(t, phone, src) {
				b, _ := json.Marshal(v.Nodes)
				t.Errorf("%s %s: axe %s %s: %s at %s", lang, name, v.Impact, v.ID, v.Help, b)
			}
		}

		id := e.createGame(lords.Name, 3, lang, "")
		if _, err := e.pool.Exec(ctx, `UPDATE outbox SET status = 'failed', attempts = 8,
  last_error = '550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual mailbox table'
  WHERE game_id = $1 AND seat = 1`, id); err != nil {
			t.Fatal(err)
		}
		if _, err := e.pool.Exec(ctx, `UPDATE outbox SET attempts = 3, next_attempt_at = now() + interval '20 minutes',
  last_error = '421 4.7.0 mx.example.org Service not available, closing transmission channel (try again later)'
  WHERE game_id = $1 AND seat = 2`, id); err != nil {
			t.Fatal(err)
		}
		look("admin-failed", hs.URL+"/admin/"+id+"?token="+tokens.Admin(secret, id, 0), "section[aria-labelledby=h-failed] table")
		if n := eval[int](t, phone, `document.querySelectorAll("section[aria-labelledby=h-failed] tbody tr").length`); n != 2 {
			t.Errorf("%s: the admin page lists %d failed emails, want 2", lang, n)
		}

		for _, g := range []struct{ name, short string }{{lords.Name, "lords"}, {bagpipes.Name, "bagpipes"}} {
			end := e.createGame(g.name, 4, lang, "")
			if n := e.playToEnd(end, 5, 8000); e.toMove(end) >= 0 {
				t.Fatalf("%s %s: not over after %d moves", lang, g.name, n)
			}
			look("audit-"+g.short, e.url+"/games/"+end+"/audit", "section[aria-labelledby=h-chart] table")
			look("end-"+g.short, e.url+"/play/"+end+"?token="+tokens.Seat(secret, end, 0, 0), "table#rounds")
		}
	}
}
