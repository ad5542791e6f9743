package api_test

import (
	"context"
	"fmt"
	"net/url"
	"pbem/events/tokens"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// pageRequests records the requests a tab sends for one game's play page
// and its forms (method and path with query; not the live stream), as the
// browser's network sees them, redirects followed included.
type pageRequests struct {
	mu      sync.Mutex
	seen    []string
	fetches int // the tab's requests made by a script's fetch, all pages
}

// quietScript is added to every document of a watched tab, before the
// page's own script: window.pbemTold is the newest version the live stream
// told the page, window.pbemFetching the script's fetches under way, and
// sessionStorage.pbemFetches (kept across the tab's documents) the fetches
// it started, so that quietThen waits for what the page does, not a time.
const quietScript = `(function () {
  var ES = window.EventSource, f = window.fetch;
  window.pbemTold = 0;
  window.pbemFetching = 0;
  if (ES) {
    window.EventSource = function (u, o) {
      var es = new ES(u, o);
      es.addEventListener("version", function (e) { window.pbemTold = Math.max(window.pbemTold, +e.data); });
      return es;
    };
  }
  if (f) {
    window.fetch = function () {
      sessionStorage.pbemFetches = +(sessionStorage.pbemFetches || 0) + 1;
      window.pbemFetching++;
      return f.apply(this, arguments).finally(function () { window.pbemFetching--; });
    };
  }
})();`

// watchPages starts recording tab's requests for game id's play page.
func watchPages(t *testing.T, tab context.Context, id string) *pageRequests {
	t.Helper()
	pr := &pageRequests{}
	within(t, tab, 10*time.Second, "watch the network", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: quietScript}); err != nil {
			return err
		}
		sent := cdp.Events(tab, tg, network.RequestWillBeSent)
		go func() {
			for ev, err := range sent {
				if err != nil {
					return
				}
				if ev.Type == network.ResourceTypeFetch {
					pr.mu.Lock()
					pr.fetches++
					pr.mu.Unlock()
				}
				u, err := url.Parse(ev.Request.URL)
				if err != nil || !strings.HasPrefix(u.Path, "/play/"+id) || strings.HasSuffix(u.Path, "/events") {
					continue
				}
				pr.mu.Lock()
				pr.seen = append(pr.seen, ev.Request.Method+" "+u.RequestURI())
				pr.mu.Unlock()
			}
		}()
		return nil
	}))
	return pr
}

// take returns the requests recorded since the last take.
func (pr *pageRequests) take() []string {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	out := pr.seen
	pr.seen = nil
	return out
}

// settle waits until tab shows a play page, fully loaded (the time zone's
// one reload done), its live stream connected.
func settle(t *testing.T, tab context.Context) {
	t.Helper()
	within(t, tab, 20*time.Second, "the page settles", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Poll[bool](`!!document.getElementById("game") && document.readyState === "complete" &&
			document.cookie.indexOf("pbem_tz=") >= 0 && document.getElementById("game").dataset.stream === "open"`,
			chromedp.WithPollingTimeout(15*time.Second))(ctx, tg)
		return err
	}))
}

// waitFor polls a JavaScript condition on tab, asking again while the
// tab navigates.
func waitFor(t *testing.T, tab context.Context, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		c, cancel := context.WithTimeout(tab, 2*time.Second)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](cond))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s: %s never came true", what, cond)
}

// quietThen waits until the page has sent every request it would send
// after a form, then takes the requests: until the live stream has told
// the page the game's version (whose news the page might fetch), the
// page shows at least that version, its script has no fetch under way,
// and the browser's network has reported each fetch it started and at
// least want requests.
func (pr *pageRequests) quietThen(t *testing.T, tab context.Context, version int64, want int) []string {
	t.Helper()
	waitFor(t, tab, "the page quiet", fmt.Sprintf(`document.readyState === "complete" && window.pbemTold >= %d &&
		+document.getElementById("game").dataset.version >= window.pbemTold && window.pbemFetching === 0`, version))
	return pr.takeAfter(t, eval[int](t, tab, `+(sessionStorage.pbemFetches || 0)`), want)
}

// loadedThen is quietThen for a tab without script: once the page is
// loaded it sends nothing more; it takes the requests once the network
// has reported at least want of them.
func (pr *pageRequests) loadedThen(t *testing.T, tab context.Context, want int) []string {
	t.Helper()
	waitFor(t, tab, "the page loaded", `document.readyState === "complete"`)
	return pr.takeAfter(t, 0, want)
}

// takeAfter takes the requests once the network has reported at least
// fetches fetches in all and want requests since the last take (or
// after 15 seconds, for the caller to find what is missing).
func (pr *pageRequests) takeAfter(t *testing.T, fetches, want int) []string {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		pr.mu.Lock()
		done := pr.fetches >= fetches && len(pr.seen) >= want
		pr.mu.Unlock()
		if done {
			break
		}
	}
	return pr.take()
}

// TestBrowserMoveInOneRoundTrip plays on a phone with clicks and a key:
// each form (a move, a take-back, the two taps of a move that cannot be
// taken back) is one POST and no GET of the page, the page is the same
// document (never reloaded) showing the new state, its URL as the
// redirect would have left it; the scroll position, a half-written chat
// line and the focus (on the confirmation, the chosen move's twin) are
// kept. The chat form is posted the same way, and emptied once sent.
func TestBrowserMoveInOneRoundTrip(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	id := e.createGame("lords-of-scotland", 2, "en", `{}`)
	seat := e.untilUndoable(id)
	phone := ownTab(t, root, 360, 740, true)
	reqs := watchPages(t, phone, id)
	within(t, phone, 20*time.Second, "open the page", chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, seat, 0)))
	settle(t, phone)
	reqs.take()
	y := eval[int](t, phone, `window.pbemSamePage = true;
		document.getElementById("chat-text").value = "half-written";
		document.addEventListener("submit", function () { window.pbemSubmitY = window.scrollY; }, true);
		window.scrollTo(0, 120); window.scrollY`)
	if y != 120 {
		t.Fatalf("the page scrolled to %d, not 120 (too short?)", y)
	}
	checkSamePage := func(step string, want []string, search string) {
		t.Helper()
		if got := reqs.quietThen(t, phone, e.version(id), len(want)); !slices.Equal(got, want) {
			t.Errorf("%s: requests %q, want %q", step, got, want)
		}
		if !eval[bool](t, phone, `window.pbemSamePage === true`) {
			t.Fatalf("%s: the page was reloaded", step)
		}
		if got := eval[string](t, phone, `location.search`); got != search {
			t.Errorf("%s: URL %q, want %q", step, got, search)
		}
		if got := eval[string](t, phone, `document.getElementById("game").dataset.version`); got != num(e.version(id)) {
			t.Errorf("%s: the page is at version %s, the game at %d", step, got, e.version(id))
		}
		// The position is kept, or as near as the fresh page allows (the
		// moves under the table shrink once played: the page may end higher).
		if got, at, end := eval[int](t, phone, `window.scrollY`), eval[int](t, phone, `window.pbemSubmitY`),
			eval[int](t, phone, `document.documentElement.scrollHeight - window.innerHeight`); got != at && (got != end || end > at) {
			t.Errorf("%s: the scroll position moved from %d to %d", step, at, got)
		}
		if chat := eval[string](t, phone, `document.getElementById("chat-text").value`); chat != "half-written" {
			t.Errorf("%s: the chat line became %q", step, chat)
		}
	}

	// A move that can be taken back, by a click.
	version := e.version(id)
	within(t, phone, 20*time.Second, "play", unfoldMoves, chromedp.Click(chromedp.CSS("form.moves button:not([data-final])")))
	waitFor(t, phone, "the played page", `!!document.getElementById("takeback")`)
	checkSamePage("move", []string{"POST /play/" + id}, "?n=played")
	if e.version(id) == version {
		t.Fatal("the move was not played")
	}
	if msg := eval[string](t, phone, `document.querySelector("#live-notices").textContent`); !strings.Contains(msg, "Your move was played.") {
		t.Errorf("notice %q", msg)
	}

	// Its take-back.
	within(t, phone, 20*time.Second, "take back", chromedp.Click(chromedp.CSS("#takeback")))
	waitFor(t, phone, "the page after the take-back", `!document.getElementById("takeback")`)
	checkSamePage("take-back", []string{"POST /play/" + id + "/takeback"}, "?n=takenback")
	if msg := eval[string](t, phone, `document.querySelector("#live-notices").textContent`); !strings.Contains(msg, "Your move was taken back.") {
		t.Errorf("notice %q", msg)
	}

	// A move that cannot be taken back: the first tap shows it to confirm
	// and the focus goes to the confirmation; Enter plays it.
	version = e.version(id)
	label := eval[string](t, phone, `document.querySelector("form.moves button[data-final]").textContent`)
	within(t, phone, 20*time.Second, "choose", unfoldMoves, chromedp.Click(chromedp.CSS("form.moves button[data-final]")))
	waitFor(t, phone, "the confirmation", `!!document.getElementById("confirm-move")`)
	checkSamePage("first tap", []string{"POST /play/" + id + "?confirm=ask"}, "?confirm=ask")
	if e.version(id) != version {
		t.Fatal("the first tap played the move")
	}
	if txt := eval[string](t, phone, `document.querySelector("form.confirm").textContent`); !strings.Contains(txt, label) {
		t.Errorf("the confirmation says %q, want the move %q", txt, label)
	}
	if focus := eval[string](t, phone, `document.activeElement.id`); focus != "confirm-move" {
		t.Errorf("after the first tap the focus is on %q, want the confirmation", focus)
	}
	within(t, phone, 20*time.Second, "confirm", chromedp.KeyEvent("\r"))
	waitFor(t, phone, "the played page", `!document.getElementById("confirm-move") && location.search === "?n=played"`)
	checkSamePage("confirmation", []string{"POST /play/" + id}, "?n=played")
	if e.version(id) == version {
		t.Fatal("the confirmation did not play the move")
	}

	// A chat line: posted the same way, shown, and the box emptied.
	within(t, phone, 20*time.Second, "chat",
		chromedp.SetValue(chromedp.CSS("#chat-text"), "well played"),
		chromedp.Click(chromedp.CSS(`form[action$="/chat"] button`)))
	waitFor(t, phone, "the chat line", `document.getElementById("live-chat").textContent.includes("well played")`)
	if got := reqs.quietThen(t, phone, e.version(id), 1); !slices.Equal(got, []string{"POST /play/" + id + "/chat"}) {
		t.Errorf("chat: requests %q", got)
	}
	if chat := eval[string](t, phone, `document.getElementById("chat-text").value`); chat != "" {
		t.Errorf("after sending, the chat box holds %q", chat)
	}
	if !eval[bool](t, phone, `window.pbemSamePage === true`) {
		t.Fatal("the chat reloaded the page")
	}
}

// TestBrowserFetchedFormErrors: through the script, a move from a stale
// page and an illegal move show the page with the translated notice
// (French here), nothing played and no GET; a form refused for its CSRF
// token shows the error page in place of the play page (never a blank
// one); a post that fails on the network is sent again as a plain form;
// and without script the forms post and redirect as they always did.
func TestBrowserFetchedFormErrors(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	id := e.createGame("lords-of-scotland", 2, "fr", `{}`)
	seat := e.toMove(id)
	phone := ownTab(t, root, 360, 740, true)
	reqs := watchPages(t, phone, id)
	within(t, phone, 20*time.Second, "a French phone",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, network.SetExtraHTTPHeaders, network.SetExtraHTTPHeadersParams{Headers: network.Headers{"Accept-Language": "fr-FR,fr;q=0.9"}})
			return err
		}),
		chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, seat, 0)))
	settle(t, phone)
	reqs.take()
	before := e.version(id)
	eval[bool](t, phone, `window.pbemSamePage = true`)

	// A stale page (one from before the deal).
	within(t, phone, 20*time.Second, "a stale move", unfoldMoves,
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form.moves input[name="version"]').value = "0"`),
		chromedp.Click(chromedp.CSS("form.moves button")))
	waitFor(t, phone, "the stale notice", `location.search === "?n=stale"`)
	if msg := eval[string](t, phone, `document.querySelector("#live-notices .notice").textContent`); !strings.Contains(msg, "La partie a avancé pendant que vous regardiez") {
		t.Errorf("stale notice %q", msg)
	}
	if got := reqs.quietThen(t, phone, e.version(id), 1); !slices.Equal(got, []string{"POST /play/" + id + "?confirm=ask"}) {
		t.Errorf("stale move: requests %q", got)
	}

	// An illegal move (on a button that does not ask for a confirmation).
	within(t, phone, 20*time.Second, "an illegal move", unfoldMoves,
		chromedp.Evaluate[chromedp.Void](`var b = document.querySelector('form.moves button');
			b.removeAttribute("formaction"); b.value = '{"type":"fly"}'`),
		chromedp.Click(chromedp.CSS("form.moves button")))
	waitFor(t, phone, "the illegal notice", `location.search === "?n=illegal"`)
	if msg := eval[string](t, phone, `document.querySelector("#live-notices .notice").textContent`); !strings.Contains(msg, "Ce coup n'est pas possible maintenant") {
		t.Errorf("illegal notice %q", msg)
	}
	if got := reqs.quietThen(t, phone, e.version(id), 1); !slices.Equal(got, []string{"POST /play/" + id}) {
		t.Errorf("illegal move: requests %q", got)
	}
	if !eval[bool](t, phone, `window.pbemSamePage === true`) || e.version(id) != before {
		t.Fatalf("after a stale and an illegal move: same page %v, version %d (was %d)", eval[bool](t, phone, `window.pbemSamePage === true`), e.version(id), before)
	}

	// A form whose CSRF token is wrong (an expired one): the error page.
	within(t, phone, 20*time.Second, "an expired form", unfoldMoves,
		chromedp.Evaluate[chromedp.Void](`document.querySelector('form.moves input[name="csrf"]').value = "expired"`),
		chromedp.Click(chromedp.CSS("form.moves button")))
	waitFor(t, phone, "the error page", `!!document.querySelector("p.notice.bad")`)
	if msg := eval[string](t, phone, `document.querySelector("p.notice.bad").textContent`); !strings.Contains(msg, "Ce formulaire est périmé") {
		t.Errorf("CSRF refusal says %q", msg)
	}
	if title, game := eval[string](t, phone, `document.title`), eval[bool](t, phone, `!!document.getElementById("game")`); game || !strings.Contains(title, "pbem") {
		t.Errorf("after a refused form: title %q, play page still there %v", title, game)
	}
	if e.version(id) != before {
		t.Fatal("a refused form changed the game")
	}
	reqs.take()

	// The network fails the script's post: the form goes the usual way.
	within(t, phone, 20*time.Second, "the page again", chromedp.Navigate(e.url+"/play/"+id))
	settle(t, phone)
	within(t, phone, 10*time.Second, "fail the script's posts", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/play/*"}}}); err != nil {
			return err
		}
		paused := cdp.Events(phone, tg, fetch.RequestPaused)
		go func() {
			for ev, err := range paused {
				if err != nil {
					return
				}
				scripted := false
				for k := range ev.Request.Headers {
					scripted = scripted || strings.EqualFold(k, "X-Pbem-Fetch")
				}
				if scripted {
					_, _ = cdp.Call(phone, tg, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonFailed})
				} else {
					_, _ = cdp.Call(phone, tg, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
				}
			}
		}()
		return nil
	}))
	reqs.take()
	within(t, phone, 20*time.Second, "choose on a failing network", unfoldMoves, chromedp.Click(chromedp.CSS("form.moves button[data-final]")))
	waitFor(t, phone, "the confirmation", `!!document.getElementById("confirm-move") && document.readyState === "complete"`)
	if got := reqs.quietThen(t, phone, e.version(id), 2); !slices.Equal(got, []string{"POST /play/" + id + "?confirm=ask", "POST /play/" + id + "?confirm=ask"}) {
		t.Errorf("after a failed post: requests %q, want the failed one and the form's", got)
	}
	if e.version(id) != before {
		t.Fatal("the first tap played the move")
	}
	within(t, phone, 10*time.Second, "stop failing", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, fetch.Disable, cdp.Empty{})
		return err
	}))
	settle(t, phone)
	reqs.take()
	within(t, phone, 20*time.Second, "confirm", chromedp.Click(chromedp.CSS("#confirm-move")))
	waitFor(t, phone, "the played page", `location.search === "?n=played"`)
	if got := reqs.quietThen(t, phone, e.version(id), 1); !slices.Equal(got, []string{"POST /play/" + id}) {
		t.Errorf("confirmation: requests %q", got)
	}
	if e.version(id) == before {
		t.Fatal("the confirmation did not play the move")
	}

	// Without script: POST, 303, GET.
	other := ownTab(t, root, 360, 740, true)
	plain := watchPages(t, other, id)
	within(t, other, 20*time.Second, "a browser without script",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}),
		chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, e.toMove(id), 0)),
		chromedp.WaitVisible(chromedp.CSS("form.moves")))
	plain.take()
	now := e.version(id)
	// Without script the list stays folded on a phone: a tap on its line
	// unfolds it (the browser's own details element).
	within(t, other, 20*time.Second, "choose without script", chromedp.Click(chromedp.CSS("#all-moves > summary")),
		chromedp.Click(chromedp.CSS("form.moves button[data-final]")))
	waitSearch(t, other, "?confirm=ask")
	within(t, other, 20*time.Second, "confirm without script", chromedp.Click(chromedp.CSS("#confirm-move")))
	waitSearch(t, other, "?n=played")
	if got := plain.loadedThen(t, other, 3); !slices.Equal(got, []string{"POST /play/" + id + "?confirm=ask", "POST /play/" + id, "GET /play/" + id + "?n=played"}) {
		t.Errorf("without script: requests %q, want the two forms and the second's redirect", got)
	}
	if e.version(id) == now {
		t.Fatal("the move without script was not played")
	}
}
