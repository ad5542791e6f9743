package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
)

// reFinal finds the move buttons that ask for a confirmation first, and
// reUndoable those that do not (their move can be taken back).
var (
	reFinal    = regexp.MustCompile(`<button type="submit" name="move" value="([^"]+)" formaction="[^"]+\?confirm=ask" data-final>`)
	reUndoable = regexp.MustCompile(`<button type="submit" name="move" value="([^"]+)">`)
)

// untilUndoable plays the first legal moves of game id through the
// service until the seat to move has a move it could take back; it
// returns that seat.
func (e *pageEnv) untilUndoable(id string) int {
	e.t.Helper()
	ctx := context.Background()
	for range 300 {
		seat := e.toMove(id)
		if seat < 0 {
			e.t.Fatal("the game ended before a move that can be taken back")
		}
		sp, err := e.svc.SeatPage(ctx, id, tokens.Seat(secret, id, seat, 0))
		if err != nil {
			e.t.Fatal(err)
		}
		for _, final := range sp.Takeback.Final {
			if !final {
				return seat
			}
		}
		mv, _ := json.Marshal(sp.View.LegalMoves[0])
		if _, err := e.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: sp.View.Version, Move: play.PostedMove(mv)}); err != nil {
			e.t.Fatal(err)
		}
	}
	e.t.Fatal("no move that can be taken back in 300 moves")
	return -1
}

// stateOf is the engine view of seat, as JSON.
func (e *pageEnv) stateOf(id string, seat int) string {
	e.t.Helper()
	v, err := playtest.SeatView(context.Background(), e.svc, secret, id, seat)
	if err != nil {
		e.t.Fatal(err)
	}
	b, _ := json.Marshal(v.State)
	return string(b)
}

// TestPageTakeback plays the take-back and the confirmation with plain
// forms (no script), in French: a move that can be taken back is played
// at once and the page then offers "Reprendre mon coup", which restores
// the seat's view; a second take-back is refused with a notice; a move
// that cannot be taken back is first shown for confirmation (nothing
// played), then played by the confirmation's own form.
func TestPageTakeback(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame("lords-of-scotland", 2, "fr", `{}`)
	seat := e.untilUndoable(id)
	b := e.browser()
	p := b.open(id, seat)
	f := moveForm(t, p.Body)
	undoable := reUndoable.FindAllStringSubmatch(p.Body, -1)
	final := reFinal.FindAllStringSubmatch(p.Body, -1)
	if len(undoable) == 0 || len(final) == 0 || len(undoable)+len(final) != len(f.moves) {
		t.Fatalf("%d moves: %d without confirmation, %d with", len(f.moves), len(undoable), len(final))
	}
	before, version := e.stateOf(id, seat), e.version(id)
	played := b.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {htmlUnescape(undoable[0][1])}})
	if played.Status != http.StatusSeeOther || !strings.HasSuffix(played.Header.Get("Location"), "?n=played") {
		t.Fatalf("move: %d to %q", played.Status, played.Header.Get("Location"))
	}
	p = b.get("/play/" + id + "?n=played")
	if !strings.Contains(p.Body, `action="/play/`+id+`/takeback"`) || !strings.Contains(p.Body, "Reprendre mon coup") {
		t.Fatal("after a move that can be taken back, the page offers no take-back")
	}
	tf := moveForm(t, p.Body[strings.Index(p.Body, `class="takeback"`):])
	back := b.post("/play/"+id+"/takeback", url.Values{"csrf": {tf.csrf}, "version": {tf.version}})
	if back.Status != http.StatusSeeOther || !strings.HasSuffix(back.Header.Get("Location"), "?n=takenback") {
		t.Fatalf("take-back: %d to %q", back.Status, back.Header.Get("Location"))
	}
	p = b.get(back.Header.Get("Location"))
	if !strings.Contains(p.Body, "Votre coup a été repris") {
		t.Fatal("no notice of the take-back")
	}
	if got := e.stateOf(id, seat); got != before || e.version(id) != version+2 {
		t.Fatalf("after the take-back (version %d, was %d): view\n%s\nwant\n%s", e.version(id), version, got, before)
	}
	again := b.post("/play/"+id+"/takeback", url.Values{"csrf": {tf.csrf}, "version": {tf.version}})
	if !strings.HasSuffix(again.Header.Get("Location"), "?n=takeback_late") {
		t.Fatalf("second take-back: %d to %q", again.Status, again.Header.Get("Location"))
	}
	if p = b.get(again.Header.Get("Location")); !strings.Contains(p.Body, "ne peut plus être repris") {
		t.Fatal("no notice of the refused take-back")
	}

	// A move that cannot be taken back: the first tap only asks.
	f = moveForm(t, p.Body)
	final = reFinal.FindAllStringSubmatch(p.Body, -1)
	mv := htmlUnescape(final[0][1])
	now := e.version(id)
	ask := b.post("/play/"+id+"?confirm=ask", url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {mv}})
	if ask.Status != http.StatusOK || !strings.Contains(ask.Body, `id="confirm-move"`) || !strings.Contains(ask.Body, "ne pourra pas être repris") {
		t.Fatalf("first tap on a final move: %d, no confirmation", ask.Status)
	}
	if e.version(id) != now {
		t.Fatal("the first tap played the move")
	}
	cf := moveForm(t, ask.Body)
	if len(cf.moves) != 1 || cf.moves[0] != mv {
		t.Fatalf("the confirmation posts %v, want only %s", cf.moves, mv)
	}
	done := b.post("/play/"+id, url.Values{"csrf": {cf.csrf}, "version": {cf.version}, "move": {cf.moves[0]}})
	if !strings.HasSuffix(done.Header.Get("Location"), "?n=played") || e.version(id) <= now {
		t.Fatalf("confirmation: %d to %q, version %d (was %d)", done.Status, done.Header.Get("Location"), e.version(id), now)
	}
	p = b.get("/play/" + id)
	if strings.Contains(p.Body, `class="takeback"`) {
		t.Fatal("after a move that cannot be taken back, the page offers a take-back")
	}
}

// waitSearch waits until the tab has loaded a page whose location.search
// is want (where a form's redirect leads). It asks again while the tab
// navigates.
func waitSearch(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	expr := `location.search === ` + jsString(want) + ` && document.readyState === "complete"`
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the tab never reached %s", want)
}

// TestBrowserTakeback takes a move back on the page in chromium, then
// plays a move that cannot be taken back with two taps: choose, confirm.
func TestBrowserTakeback(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)
	id := e.createGame("lords-of-scotland", 2, "en", `{}`)
	seat := e.untilUndoable(id)
	before, version := e.stateOf(id, seat), e.version(id)
	phone := tab(t, root, 360, 740, true)
	label := ""
	within(t, phone, 30*time.Second, "a move that can be taken back",
		chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, seat, 0)),
		chromedp.WaitVisible(chromedp.CSS("form.moves")),
	)
	label = eval[string](t, phone, `document.querySelector("form.moves button:not([data-final])").textContent`)
	within(t, phone, 30*time.Second, "play it", unfoldMoves,
		chromedp.Click(chromedp.CSS("form.moves button:not([data-final])")),
	)
	waitSearch(t, phone, "?n=played")
	t.Logf("played %q", label)
	if e.version(id) == version {
		t.Fatal("the move was not played")
	}
	if n := eval[int](t, phone, a11yProblems); n != 0 {
		t.Errorf("the page with the take-back has %d controls without a label or buttons outside forms", n)
	}
	screenshot(t, phone, shots, "takeback-phone-360.png")
	within(t, phone, 30*time.Second, "take it back",
		chromedp.Click(chromedp.CSS("#takeback")),
	)
	waitSearch(t, phone, "?n=takenback")
	if loc := eval[string](t, phone, `location.search`); loc != "?n=takenback" {
		t.Fatalf("after the take-back: %q", loc)
	}
	if msg := eval[string](t, phone, `document.querySelector("p.notice").textContent`); !strings.Contains(msg, "Your move was taken back") {
		t.Errorf("notice %q", msg)
	}
	if got := e.stateOf(id, seat); got != before {
		t.Fatalf("after the take-back the view is\n%s\nwant\n%s", got, before)
	}
	if n := eval[int](t, phone, `document.querySelectorAll("#takeback").length`); n != 0 {
		t.Error("the page still offers a take-back")
	}

	// Two taps for a move that cannot be taken back.
	now := e.version(id)
	label = eval[string](t, phone, `document.querySelector("form.moves button[data-final]").textContent`)
	within(t, phone, 30*time.Second, "choose a final move", unfoldMoves,
		chromedp.Click(chromedp.CSS("form.moves button[data-final]")),
	)
	waitSearch(t, phone, "?confirm=ask")
	if e.version(id) != now {
		t.Fatal("the first tap played the move")
	}
	if txt := eval[string](t, phone, `document.querySelector("form.confirm").textContent`); !strings.Contains(txt, label) ||
		!strings.Contains(txt, "cannot be taken back") {
		t.Errorf("the confirmation says %q, want the move %q", txt, label)
	}
	screenshot(t, phone, shots, "confirm-phone-360.png")
	within(t, phone, 30*time.Second, "confirm it",
		chromedp.Click(chromedp.CSS("#confirm-move")),
	)
	waitSearch(t, phone, "?n=played")
	if loc := eval[string](t, phone, `location.search`); loc != "?n=played" || e.version(id) <= now {
		t.Fatalf("after the confirmation: %q, version %d (was %d)", loc, e.version(id), now)
	}
}
