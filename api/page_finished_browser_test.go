package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/hkdf"

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

// TestBrowserFinishedGamesOnAPhone is the journey to a game's end pages
// on a phone (390x844), in English, French and Italian: the admin page of
// a game with failed emails, then, for a finished Lords of Scotland and a
// finished Swords and Bagpipes game, the audit page and the play page of
// the end. It merges two journeys that opened the same audit pages of
// finished games on the same phone in the same languages, and keeps the
// assertions of both:
//
// From TestBrowserTablesFitAPhone: the admin page lists the game's two
// failed emails (from the real outbox: one given up with a long SMTP
// answer, one waiting for its next try) in a table; the audit pages (their
// round-by-round chart) and the end's play page (table#rounds) each fit
// the 390 px width, their table stacks (each row a block, each figure
// with its column's name, the header row kept for screen readers), no
// table scrolls sideways, and axe-core finds nothing serious. Screenshots
// tables-*.png.
//
// From TestBrowserAuditShowsCommitKey: the finished Lords game's audit
// page shows the commitment key K, which is HKDF-SHA256 of the revealed
// seed (computed here from the page's seed, as a third party would), says
// how to check it, and gives the command that checks the downloaded
// record offline (pbem verify --audit audit.json) and the record's
// address. Screenshots audit-key-LANG.png and audit-verify-LANG.png (the
// key and the checks, scrolled into view).
//
// The end's play page is also shot at its table talk (end-talk-*.png),
// which says that no one wrote to the table, and where its "Play again"
// form comes on screen (end-rematch-*.png): the button and its note are
// on screen and nothing covers them (the action bar, fixed at the
// bottom while a game is on, covered the note), and no bar fixed on the
// screen repeats the result the headline tells.
//
// PBEM_SCREENSHOTS keeps the screenshots.
func TestBrowserFinishedGamesOnAPhone(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	e := newPageEnv(t)
	hs := httptest.NewServer(api.New(api.Config{Service: e.svc, Pages: &api.PageConfig{Service: e.svc, Secret: secret,
		Notify: e.store.Notify, Poll: time.Second, Failed: notifypg.NewOutbox(e.pool)}}))
	t.Cleanup(hs.Close)
	shots := screenshotDir(t)
	ctx := context.Background()
	says := map[string]string{"en": "Commitment key K", "fr": "Clé d'engagement K", "it": "Chiave d'impegno K"}
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
			if g.name == lords.Name {
				auditShowsCommitKey(t, phone, shots, lang, says[lang], end)
			}
			look("end-"+g.short, e.url+"/play/"+end+"?token="+tokens.Seat(secret, end, 0, 0), "table#rounds")
			rematchInSight(t, phone, shots, lang, g.short)
			within(t, phone, 20*time.Second, lang+" "+g.short+" table talk", chromedp.ScrollIntoView(chromedp.CSS("#table-talk")))
			shot(t, phone, filepath.Join(shots, "end-talk-"+g.short+"-"+lang+".png"))
		}
		release(phone)
	}
}

// rematchUncovered lists what hides the end's call to action on the play
// page of a finished game: the "Play again" button (#rematch) or its note
// not in the viewport, or covered at its centre or its lower corners
// (document.elementFromPoint there is not it or inside it; 8 px in from
// the sides, where the button's rounded corners, .4rem, no longer cut the
// bottom edge: 2 px in, a corner's hit test fell to the button's parent
// or not by a fraction of a pixel of the page's layout), and an
// element fixed on the screen (the action bar) that tells the result the
// headline already tells.
const rematchUncovered = `(function () {
  var out = [], head = document.getElementById("headline"), words = head ? head.textContent.trim() : "";
  function name(el) { return el ? el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className ? "." + el.className : "") : "nothing"; }
  if (!words) { out.push("no headline"); }
  Array.prototype.forEach.call(document.querySelectorAll("body *"), function (el) {
    var pos = getComputedStyle(el).position;
    if ((pos === "fixed" || pos === "sticky") && el.offsetHeight > 0 && words && el.innerText.indexOf(words) >= 0) {
      out.push("a " + pos + " " + name(el) + " repeats the result " + JSON.stringify(words));
    }
  });
  ["#rematch", "form.rematch p.meta"].forEach(function (sel) {
    var el = document.querySelector(sel);
    if (!el) { out.push("no " + sel); return; }
    var r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight) {
      out.push(sel + " at top " + Math.round(r.top) + " bottom " + Math.round(r.bottom) + ", outside the " + innerHeight + " px viewport");
      return;
    }
    [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 8, r.bottom - 2], [r.right - 8, r.bottom - 2]].forEach(function (p) {
      var at = document.elementFromPoint(p[0], p[1]);
      if (!at || !el.contains(at)) { out.push(sel + " covered at (" + Math.round(p[0]) + ", " + Math.round(p[1]) + ") by " + name(at)); }
    });
  });
  return out;
})()`

// rematchInSight checks the play page of a finished game that phone
// shows (TestBrowserFinishedGamesOnAPhone): at the top of the page, or
// when the "Play again" form is below the first screen, scrolled as a
// thumb would until the whole form is on screen (its lower edge 8 px
// above the screen's), the button and its note are on screen and nothing
// covers them; and no bar fixed on the screen repeats the result.
// Screenshot end-rematch-SHORT-LANG.png.
func rematchInSight(t *testing.T, phone context.Context, shots, lang, short string) {
	t.Helper()
	within(t, phone, 10*time.Second, lang+" "+short+" the top",
		chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0);
var f = document.querySelector("form.rematch");
var below = f ? f.getBoundingClientRect().bottom - innerHeight : 0;
if (below > 0) { window.scrollBy(0, below + 8); }`))
	shot(t, phone, filepath.Join(shots, "end-rematch-"+short+"-"+lang+".png"))
	for _, p := range eval[[]string](t, phone, rematchUncovered) {
		t.Errorf("%s %s: the end's play page on a phone: %s", lang, short, p)
	}
}

// auditShowsCommitKey checks the audit page of finished game id that
// phone shows (TestBrowserFinishedGamesOnAPhone): the key K, HKDF of the
// page's seed, what says it (keyTitle) and the offline check.
func auditShowsCommitKey(t *testing.T, phone context.Context, shots, lang, keyTitle, id string) {
	t.Helper()
	within(t, phone, 20*time.Second, lang+" commit key", chromedp.WaitVisible(chromedp.CSS("#commit-key")))
	text := eval[string](t, phone, `document.body.innerText`)
	if !strings.Contains(text, keyTitle) || !strings.Contains(text, "pbem verify --audit audit.json") ||
		!strings.Contains(text, "/api/v1/games/"+id+"/audit") {
		t.Fatalf("%s: the audit page does not show the key and the offline check:\n%s", lang, text)
	}
	seedHex := eval[string](t, phone, `document.querySelector("dl.fields dd:nth-of-type(2) code").textContent`)
	seed, err := hex.DecodeString(seedHex)
	if err != nil || len(seed) != 32 {
		t.Fatalf("%s: seed %q", lang, seedHex)
	}
	k := make([]byte, 32)
	if _, err := io.ReadFull(hkdf.New(sha256.New, seed, nil, []byte("pbem commit key v2")), k); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, phone, `document.getElementById("commit-key").textContent`); got != hex.EncodeToString(k) {
		t.Fatalf("%s: the page's key %s is not HKDF of its seed (%x)", lang, got, k)
	}
	// Each event is numbered once, by its version (the list's own markers
	// counted the same numbers beside it: "2. ▶ 2 Ann recruited...").
	if marker := eval[string](t, phone, `getComputedStyle(document.querySelector("ol.events > li")).listStyleType`); marker != "none" {
		t.Errorf("%s: the audit's events are numbered twice (list marker %q beside each version)", lang, marker)
	}
	within(t, phone, 10*time.Second, lang+" scroll", chromedp.ScrollIntoView(chromedp.CSS("#commit-key")))
	shot(t, phone, filepath.Join(shots, "audit-key-"+lang+".png"))
	within(t, phone, 10*time.Second, lang+" scroll", chromedp.ScrollIntoView(chromedp.CSS("#verify-offline")))
	shot(t, phone, filepath.Join(shots, "audit-verify-"+lang+".png"))
}

// shot saves what the tab's viewport shows.
func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
