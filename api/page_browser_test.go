package api_test

import (
	"context"
	"encoding/json"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/notify/smtpsink"
)

// chromium is Debian's browser, driven headless by the browser tests.
const chromium = "/usr/bin/chromium"

// theChromium is the package's one headless chromium, started by the first
// browser test that asks for it and stopped by TestMain after the last
// test. The tests share it (a start is seconds on a busy machine) and not
// their state: each tab is a browser context of its own (tab).
var theChromium struct {
	once sync.Once
	ctx  context.Context
	err  error
	stop func()
}

// TestMain stops the shared chromium once every test has run.
func TestMain(m *testing.M) {
	defer func() {
		if theChromium.stop != nil {
			theChromium.stop()
		}
	}()
	m.Run()
}

// startBrowser returns the root context of the package's chromium,
// starting it the first time (skipped only when chromium is absent
// outside CI). Tests open their pages in tabs of it (tab).
func startBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("no %s (and CI is unset)", chromium)
		}
		t.Fatalf("CI needs %s: %v", chromium, err)
	}
	theChromium.once.Do(func() {
		dir, err := os.MkdirTemp("", "pbem-chromium-")
		if err != nil {
			theChromium.err = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(chromium),
			chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.UserDataDir(dir),
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(actx)
		theChromium.ctx, theChromium.err = ctx, chromedp.Do(ctx)
		theChromium.stop = func() { cancel(); cancelAlloc(); os.RemoveAll(dir) }
	})
	if theChromium.err != nil {
		t.Fatalf("start chromium: %v", theChromium.err)
	}
	return theChromium.ctx
}

// viewport is the size of a tab, a phone's (mobile) or a desktop's.
type viewport struct {
	w, h   int64
	mobile bool
}

// phoneAndDesktop are the two sizes the pages are judged at.
var phoneAndDesktop = []viewport{{390, 844, true}, {1280, 900, false}}

// seatTab returns seat's tab of game id in tabs, the first time opening
// one of its own (its own cookies) at size vp by the seat's link.
func seatTab(t *testing.T, root context.Context, e *pageEnv, tabs map[int]context.Context, id string, seat int, vp viewport) context.Context {
	t.Helper()
	if tb, ok := tabs[seat]; ok {
		return tb
	}
	tb := tab(t, root, vp.w, vp.h, vp.mobile)
	tabs[seat] = tb
	within(t, tb, 30*time.Second, "open seat "+strconv.Itoa(seat)+"'s link",
		chromedp.Navigate(e.url+"/play/"+id+"?token="+url.QueryEscape(tokens.Seat(secret, id, seat, 0))),
		chromedp.WaitVisible(chromedp.CSS("#game")))
	return tb
}

// unfoldMoves unfolds the play page's full list of moves, folded on a
// phone (issue #43: the cards offer the same moves), as a player's tap on
// its line does; it leaves an unfolded list (a desktop's) as it is.
var unfoldMoves = chromedp.Evaluate[chromedp.Void](`(document.getElementById("all-moves") || {}).open = true`)

// within runs steps with a time limit on one tab.
func within(t *testing.T, ctx context.Context, d time.Duration, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// screenshotDir is where a browser test saves its screenshots:
// PBEM_SCREENSHOTS when set (kept), else a folder of the test's own.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PBEM_SCREENSHOTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s (%d bytes)", p, len(png))
}

// a11yProblems counts the page's form controls without a label and its
// buttons that are not real submit buttons of a form.
const a11yProblems = `Array.from(document.querySelectorAll("input:not([type=hidden]), select, textarea")).filter(el => el.labels.length === 0).length +
	Array.from(document.querySelectorAll("button")).filter(b => !b.form || b.type !== "submit").length`

// TestBrowserFromEmailLinkToMove is the players' path in a real browser:
// a game created in the lobby, the invitations sent by the real notify
// worker over SMTP, a link opened on a phone (the token leaves the URL, the
// hand shows), a move played by a click, the turn passing, and the other
// seat's open desktop page following live.
func TestBrowserFromEmailLinkToMove(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)

	// The lobby: create a game of Lords of Scotland; Ann organises it.
	admin := tab(t, root, 1280, 900, false)
	within(t, admin, 20*time.Second, "lobby",
		chromedp.Navigate(e.url+"/"),
		chromedp.WaitVisible(chromedp.CSS("form.lobby")),
		chromedp.SetValue(chromedp.CSS("#language"), "en"),
		chromedp.SendKeys(chromedp.CSS(`input[name="name1"]`), "Ann"),
		chromedp.SendKeys(chromedp.CSS(`input[name="email1"]`), "ann@example.org"),
		chromedp.SendKeys(chromedp.CSS(`input[name="name2"]`), "Bob"),
		chromedp.SendKeys(chromedp.CSS(`input[name="email2"]`), "bob@example.org"),
		chromedp.SendKeys(chromedp.CSS(`input[name="organiser_email"]`), "ann@example.org"),
		// The game begins at once: no muster (TestBrowserMuster has one).
		chromedp.SetValue(chromedp.CSS("#muster"), "0"),
		chromedp.Click(chromedp.CSS("button.primary")),
		chromedp.WaitVisible(chromedp.CSS("#proposed")),
	)
	if unlabelled := eval[int](t, admin, a11yProblems); unlabelled != 0 {
		t.Errorf("the proposed page has %d controls without a label or buttons outside forms", unlabelled)
	}
	confirm := organiserLink(t, e, "/confirm/")
	within(t, admin, 20*time.Second, "confirm",
		chromedp.Navigate(confirm),
		chromedp.Click(chromedp.CSS("#confirm")),
		chromedp.WaitVisible(chromedp.CSS("#confirmed")),
	)
	within(t, admin, 20*time.Second, "lobby again", chromedp.Navigate(e.url+"/"), chromedp.WaitVisible(chromedp.CSS("form.lobby")))
	if unlabelled := eval[int](t, admin, a11yProblems); unlabelled != 0 {
		t.Errorf("the lobby has %d controls without a label or buttons outside forms", unlabelled)
	}

	// The invitations, through the real worker and an SMTP server.
	links, adminLink := sendInvitations(t, e, 2)
	u, err := url.Parse(adminLink)
	if err != nil || !strings.HasPrefix(u.Path, "/admin/") || u.Query().Get("token") == "" {
		t.Fatalf("admin link %q", adminLink)
	}
	id := strings.TrimPrefix(u.Path, "/admin/")
	mover := e.toMove(id)
	if mover < 0 {
		t.Fatal("nobody to move")
	}
	names := []string{"Ann", "Bob"}
	moverEmail, otherEmail := strings.ToLower(names[mover])+"@example.org", strings.ToLower(names[1-mover])+"@example.org"

	// The other seat opens its link on a desktop and waits.
	desk := tab(t, root, 1280, 900, false)
	within(t, desk, 20*time.Second, "desktop page",
		chromedp.Navigate(links[otherEmail]),
		chromedp.WaitVisible(chromedp.CSS("#game")),
	)
	if turn := eval[string](t, desk, `document.getElementById("turn").textContent`); !strings.Contains(turn, "Waiting for "+names[mover]) {
		t.Fatalf("desktop turn line %q", turn)
	}

	// The mover opens the link on a phone, in Paris.
	phone := tab(t, root, 360, 740, true)
	within(t, phone, 20*time.Second, "phone page",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Europe/Paris"})
			return err
		}),
		chromedp.Navigate(links[moverEmail]),
		chromedp.WaitVisible(chromedp.CSS("#game")),
		// The script stores the time zone and the page tells times in it.
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`document.body.dataset.tz === "Europe/Paris" && !!document.getElementById("game")`,
				chromedp.WithPollingTimeout(10*time.Second))(ctx, tg)
			return err
		}),
	)
	loc := eval[string](t, phone, `location.href`)
	if strings.Contains(loc, "token") || !strings.HasSuffix(loc, "/play/"+id) {
		t.Fatalf("the URL kept its token: %s", loc)
	}
	v, err := playtest.SeatView(context.Background(), e.svc, secret, id, mover)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(v.State)
	var view struct {
		Hand []json.RawMessage `json:"hand"`
	}
	if err := json.Unmarshal(raw, &view); err != nil || len(view.Hand) == 0 {
		t.Fatalf("view %s: %v", raw, err)
	}
	if n := eval[int](t, phone, `document.querySelectorAll("#h-hand ~ ul li[data-rank]").length`); n != len(view.Hand) {
		t.Fatalf("%d cards in the hand, want %d", n, len(view.Hand))
	}
	if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("the phone page is %d px wide (viewport 360)", w)
	}
	if turn := eval[string](t, phone, `document.getElementById("turn").textContent`); !strings.Contains(turn, "Your turn") {
		t.Fatalf("phone turn line %q", turn)
	}
	if n := eval[int](t, phone, a11yProblems); n != 0 {
		t.Errorf("the play page has %d controls without a label or buttons outside forms", n)
	}
	screenshot(t, phone, shots, "play-phone-360.png")

	// Play the first listed move with a click. It is a recruit, which
	// cannot be taken back: a second tap confirms it.
	label := eval[string](t, phone, `document.querySelector("form.moves button").textContent`)
	within(t, phone, 20*time.Second, "move", unfoldMoves,
		chromedp.Click(chromedp.CSS("form.moves button")),
		chromedp.WaitVisible(chromedp.CSS("#confirm-move")),
		chromedp.Click(chromedp.CSS("#confirm-move")),
		chromedp.WaitVisible(chromedp.CSS("p.notice")),
	)
	t.Logf("played %q", label)
	if loc := eval[string](t, phone, `location.search`); loc != "?n=played" {
		t.Errorf("after the move: %q", loc)
	}
	turn := eval[string](t, phone, `document.getElementById("turn").textContent`)
	notice := eval[string](t, phone, `Array.from(document.querySelectorAll("p.notice")).map(p => p.textContent).join(" ")`)
	if !strings.Contains(turn, "Waiting for "+names[1-mover]) || !strings.Contains(notice, "Next to play: "+names[1-mover]) {
		t.Fatalf("after the move: turn %q, notice %q", turn, notice)
	}

	// The desktop page follows by itself.
	within(t, desk, 15*time.Second, "live update",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`!!document.getElementById("turn") && document.getElementById("turn").textContent.includes("Your turn")`,
				chromedp.WithPollingTimeout(12*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))(ctx, tg)
			return err
		}),
	)
	if n := eval[int](t, desk, `document.querySelectorAll("form.moves button").length`); n == 0 {
		t.Fatal("the desktop page shows no moves on its turn")
	}
	if w := eval[int](t, desk, `document.documentElement.scrollWidth`); w > 1280 {
		t.Errorf("the desktop page is %d px wide", w)
	}
	screenshot(t, desk, shots, "play-desktop-1280.png")

	// The desktop page never holds the mover's hidden cards.
	html := eval[string](t, desk, `document.documentElement.outerHTML`)
	for r := range hiddenFrom(t, e, id, mover, 1-mover) {
		if strings.Contains(html, `data-rank="`+r+`"`) {
			t.Fatalf("the page of seat %d shows card %s of seat %d", 1-mover, r, mover)
		}
	}

	// A form without its CSRF token is refused, and nothing changes.
	before := e.version(id)
	within(t, desk, 15*time.Second, "post without csrf",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form.moves input[name="csrf"]').remove()`),
		chromedp.Click(chromedp.CSS("form.moves button")),
		chromedp.WaitVisible(chromedp.CSS("p.notice.bad")),
	)
	if msg := eval[string](t, desk, `document.querySelector("p.notice.bad").textContent`); !strings.Contains(msg, "out of date") {
		t.Errorf("CSRF refusal says %q", msg)
	}
	if e.version(id) != before {
		t.Fatal("a POST without the CSRF token changed the game")
	}

	// A page left behind by the game (an old version) says so and shows the fresh state.
	within(t, desk, 15*time.Second, "stale page",
		chromedp.Navigate(e.url+"/play/"+id),
		chromedp.WaitVisible(chromedp.CSS("form.moves")),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form.moves input[name="version"]').value = "1"`),
		// With the keyboard this time: focus the first move and press Enter.
		chromedp.Focus(chromedp.CSS("form.moves button")),
		chromedp.KeyEvent("\r"),
		chromedp.WaitVisible(chromedp.CSS("p.notice")),
	)
	if msg := eval[string](t, desk, `document.querySelector("p.notice").textContent`); !strings.Contains(msg, "moved on") {
		t.Errorf("stale notice %q", msg)
	}
	if v := eval[string](t, desk, `document.getElementById("game").dataset.version`); v != num(e.version(id)) || e.version(id) != before {
		t.Errorf("after a stale post: page at version %s, game at %d (was %d)", v, e.version(id), before)
	}

	// The admin link is swapped for a cookie too.
	within(t, admin, 20*time.Second, "admin page",
		chromedp.Navigate(adminLink),
		chromedp.WaitVisible(chromedp.CSS(`form.danger`)),
	)
	if loc := eval[string](t, admin, `location.href`); strings.Contains(loc, "token") {
		t.Errorf("the admin URL kept its token: %s", loc)
	}
}

// organiserLink sends the one pending email (the organiser's) through the
// notify worker and an SMTP sink, and returns its link starting with path.
func organiserLink(t *testing.T, e *pageEnv, path string) string {
	t.Helper()
	got := deliverOutbox(t, e.pool, e.url, 1)
	p, err := smtpsink.Parse(got[0].Data)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(p.Text, e.url+path)
	if i < 0 {
		t.Fatalf("no %s link in:\n%s", path, p.Text)
	}
	return strings.Fields(p.Text[i:])[0]
}

// sendInvitations runs the notify worker over an SMTP sink (n invitations
// and the organiser's admin link) and returns each invited address's play
// link, and the admin link.
func sendInvitations(t *testing.T, e *pageEnv, n int) (map[string]string, string) {
	t.Helper()
	links := map[string]string{}
	adminLink := ""
	for _, m := range deliverOutbox(t, e.pool, e.url, n+1) {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		to, err := mail.ParseAddress(p.Header.Get("To"))
		if err != nil {
			t.Fatal(err)
		}
		if i := strings.Index(p.Text, e.url+"/admin/"); i >= 0 {
			adminLink = strings.Fields(p.Text[i:])[0]
			continue
		}
		i := strings.Index(p.Text, e.url+"/play/")
		if i < 0 {
			t.Fatalf("no play link in:\n%s", p.Text)
		}
		link := strings.Fields(p.Text[i:])[0]
		links[to.Address] = link
	}
	if len(links) != n || adminLink == "" {
		t.Fatalf("links for %d addresses, want %d; admin link %q", len(links), n, adminLink)
	}
	return links, adminLink
}
