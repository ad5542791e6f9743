package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/notify/smtpsink"
)

// chatMailer is the real notify worker over a page env's outbox, with the
// seats' stories and the freshness check as serve has them, sending to an
// SMTP server on loopback, on a clock the test moves.
type chatMailer struct {
	t    *testing.T
	w    *notify.Worker
	sink *smtpsink.Sink
	now  time.Time
	seen int // messages already returned
}

func newChatMailer(t *testing.T, e *pageEnv) *chatMailer {
	t.Helper()
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	sink, sender := startSink(t)
	m := &chatMailer{t: t, sink: sink, now: time.Now().Add(time.Second)}
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: e.url})
	if err != nil {
		t.Fatal(err)
	}
	out := notifypg.NewOutbox(e.pool)
	hist := notifypg.Histories{Games: engine.NewRegistry(lg, bagpipes.Game{}), Events: e.store}
	m.w, err = notify.NewWorker(notify.WorkerConfig{Store: out, Freshness: out, Seats: notifypg.NewSeats(e.pool, hist),
		Sender: sender, Renderer: r, Now: func() time.Time { return m.now }})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// send runs the worker until nothing is due and returns the emails the
// SMTP server received since the last call, by recipient.
func (m *chatMailer) send() map[string][]smtpsink.Parsed {
	m.t.Helper()
	if real := time.Now().Add(time.Second); real.After(m.now) {
		m.now = real // rows written since are due
	}
	for {
		n, err := m.w.RunOnce(context.Background())
		if err != nil {
			m.t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	out := map[string][]smtpsink.Parsed{}
	msgs := m.sink.Messages()
	for _, r := range msgs[m.seen:] {
		p, err := smtpsink.Parse(r.Data)
		if err != nil {
			m.t.Fatal(err)
		}
		out[r.To[0]] = append(out[r.To[0]], p)
	}
	m.seen = len(msgs)
	return out
}

// TestBrowserTableTalk: table talk in a real chromium on a phone, with the
// real mail worker and an SMTP server on loopback. Ann's page (New York
// time) shows each of Bob's lines with his name and its time in her zone,
// marked new, also in "Since your last turn", as they come (the live
// update); her own line, written in the four-row box, is hers and not new,
// and the form's status says it was sent, the latest lines unfolded.
// The emails are gathered: Cid gets one email with all four lines, Bob one
// with Ann's line, Ann none (her page showed them); a line written less
// than a quarter hour later waits for the quarter hour (for those who got
// one), and a line to a
// player whose your-turn email is waiting is told by that email.
func TestBrowserTableTalk(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame(lords.Name, 3, "en", "")
	mail := newChatMailer(t, e)
	if got := mail.send(); len(got) != 3 {
		t.Fatalf("invitations to %d players, want 3", len(got))
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	a := tab(t, root, 390, 844, true)
	within(t, a, 30*time.Second, "Ann's page",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: ny.String()})
			return err
		}),
		chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, 0, 0)),
		chromedp.WaitVisible(chromedp.CSS("#chat-text")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`document.body.dataset.tz === "America/New_York" && !!document.getElementById("chat-text")`,
				chromedp.WithPollingTimeout(15*time.Second))(ctx, tg)
			return err
		}),
	)
	if rows := eval[int](t, a, `document.getElementById("chat-text").rows`); rows < 4 {
		t.Errorf("the chat box has %d rows", rows)
	}
	if h := eval[float64](t, a, `document.getElementById("chat-text").getBoundingClientRect().height`); h < 90 {
		t.Errorf("the chat box is %.0f px high on a phone", h)
	}

	// Bob writes three lines; Ann's open page shows them as they come.
	bob := tokens.Seat(secret, id, 1, 0)
	said := []string{"Hello from Bob!", "Who takes Bruce?", "Line three <b>not bold</b>"}
	for _, s := range said {
		if err := e.svc.Chat(ctx, id, bob, s, ""); err != nil {
			t.Fatal(err)
		}
	}
	within(t, a, 30*time.Second, "Bob's lines on Ann's page",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`document.querySelectorAll("#live-chat li.chat-line.new").length === 3 &&
				document.querySelectorAll("#catchup li").length >= 3`,
				chromedp.WithPollingTimeout(25*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))(ctx, tg)
			return err
		}),
	)
	h, err := e.svc.History(ctx, id, tokens.Seat(secret, id, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Time
	for _, r := range h.Events {
		if r.Type == "pbem.chat" {
			times = append(times, r.RecordedAt)
		}
	}
	if len(times) != 3 {
		t.Fatalf("%d chat events in the history", len(times))
	}
	type line struct{ Who, Time, ISO, Text, Tag, Class string }
	lines := eval[[]line](t, a, `Array.from(document.querySelectorAll("#live-chat li.chat-line")).map(li => ({
		Who: li.querySelector(".who").textContent, Time: li.querySelector("time").textContent,
		ISO: li.querySelector("time").getAttribute("datetime"), Text: li.querySelector(".chat-text").textContent,
		Tag: (li.querySelector(".new-tag") || {textContent: ""}).textContent, Class: li.className}))`)
	for i, l := range lines {
		want := line{Who: "Bob", Time: "today " + times[i].In(ny).Format("15:04"), ISO: times[i].UTC().Format(time.RFC3339),
			Text: said[i], Tag: "new", Class: "chat-line new"}
		if now := time.Now().In(ny); now.Day() != times[i].In(ny).Day() {
			want.Time = l.Time // the test ran across midnight in New York
		}
		if l != want {
			t.Errorf("chat line %d: %+v, want %+v", i, l, want)
		}
	}
	catchup := eval[string](t, a, `document.getElementById("catchup").textContent`)
	for _, s := range append([]string{"Table talk"}, said...) {
		if !strings.Contains(catchup, s) {
			t.Errorf("\"Since your last turn\" lacks %q: %s", s, catchup)
		}
	}

	// Ann answers in the box; her line is hers, not new.
	within(t, a, 30*time.Second, "Ann writes",
		chromedp.SendKeys("#chat-text", "Bruce is mine, Bob"),
		chromedp.Click(`.chat-form button[type=submit]`),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`(function(){ var l = document.querySelectorAll("#live-chat li.chat-line");
				return l.length === 4 && l[3].className === "chat-line mine" && l[3].querySelector(".who").textContent === "Ann"; })()`,
				chromedp.WithPollingTimeout(25*time.Second), chromedp.WithPollingInterval(100*time.Millisecond))(ctx, tg)
			return err
		}),
	)
	// Beside the form, a live region says the line was sent, and the
	// latest lines are unfolded to show it (a user trial saw nothing).
	if got := eval[[]string](t, a, `[document.getElementById("chat-status").textContent, String(document.getElementById("chat-lines").open)]`); got[0] != "Your message was sent to the table." || got[1] != "true" {
		t.Errorf("after Ann's line: the status beside the form says %q, the latest lines unfolded: %s", got[0], got[1])
	}
	if dir := os.Getenv("PBEM_SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		within(t, a, 10*time.Second, "to the chat", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, document.getElementById("table-talk").offsetTop - 10)`))
		viewShot(t, a, dir, "chat-phone-en.png")
		within(t, a, 10*time.Second, "to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
		viewShot(t, a, dir, "chat-catchup-phone-en.png")
	}

	// Gathered: one email to Cid with the four lines, one to Bob with
	// Ann's, none to Ann, whose page showed Bob's lines.
	got := mail.send()
	if n := len(got["cid@example.org"]); n != 1 {
		t.Fatalf("Cid got %d emails, want 1 (got %v)", n, recipients(got))
	}
	for _, s := range append(said[:2:2], "Bruce is mine, Bob") {
		if !strings.Contains(got["cid@example.org"][0].Text, s) {
			t.Errorf("Cid's email lacks %q:\n%s", s, got["cid@example.org"][0].Text)
		}
	}
	if b := got["bob@example.org"]; len(b) != 1 || !strings.Contains(b[0].Text, "Bruce is mine, Bob") || strings.Contains(b[0].Text, "Hello from Bob") {
		t.Errorf("Bob's emails: %d, want one with Ann's line only", len(b))
	}
	if n := len(got["ann@example.org"]); n != 0 {
		t.Errorf("Ann got %d emails; her page had shown the lines", n)
	}

	// A line five minutes later waits for the quarter hour.
	mail.now = mail.now.Add(5 * time.Minute)
	if err := e.svc.Chat(ctx, id, bob, "Still there, Cid?", ""); err != nil {
		t.Fatal(err)
	}
	// (Ann, who got no table-talk email yet, is told at once.)
	if got := mail.send(); len(got["cid@example.org"]) != 0 || len(got["bob@example.org"]) != 0 {
		t.Errorf("emails %v less than a quarter hour after the last", recipients(got))
	}
	mail.now = mail.now.Add(11 * time.Minute)
	got = mail.send()
	if c := got["cid@example.org"]; len(c) != 1 || !strings.Contains(c[0].Text, "Still there, Cid?") || strings.Contains(c[0].Text, "Hello from Bob") {
		t.Errorf("Cid's email after the quarter hour: %d, want one with the new line only", len(c))
	}

	// Folded: the player to move plays, and the next one's your-turn email
	// tells the line written meanwhile; no table-talk email goes to them.
	mover := e.toMove(id)
	next := mover
	for next == mover {
		v, err := playtest.SeatView(ctx, e.svc, secret, id, mover)
		if err != nil {
			t.Fatal(err)
		}
		mv, _ := json.Marshal(v.LegalMoves[0])
		if _, err := e.svc.MoveAs(ctx, id, mover, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
		next = e.toMove(id)
	}
	third := 3 - mover - next
	if err := e.svc.Chat(ctx, id, tokens.Seat(secret, id, third, 0), fmt.Sprintf("Your turn, seat %d", next), ""); err != nil {
		t.Fatal(err)
	}
	mail.now = mail.now.Add(16 * time.Minute)
	got = mail.send()
	to := []string{"ann@example.org", "bob@example.org", "cid@example.org"}[next]
	if n := len(got[to]); n != 1 || !strings.Contains(got[to][0].Text, fmt.Sprintf("Your turn, seat %d", next)) {
		t.Errorf("the next player got %d emails (want one your-turn email with the line): %v", n, recipients(got))
	}
	var folded int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE game_id = $1 AND seat = $2 AND kind = 'chat' AND last_error = $3`,
		id, next, notify.StaleFolded).Scan(&folded); err != nil || folded != 1 {
		t.Errorf("%d table-talk rows folded into the your-turn email (%v), want 1", folded, err)
	}

	// The organiser's page of this game mid-game, on the same phone.
	if dir := os.Getenv("PBEM_SCREENSHOTS"); dir != "" {
		if _, err := e.svc.SeatBot(ctx, id, tokens.Admin(secret, id, 0), third, "normal"); err != nil {
			t.Fatal(err)
		}
		adm := tab(t, root, 390, 844, true)
		within(t, adm, 30*time.Second, "admin page",
			chromedp.Navigate(e.url+"/admin/"+id+"?token="+tokens.Admin(secret, id, 0)),
			chromedp.WaitVisible(chromedp.CSS("#seats")))
		if w := eval[int](t, adm, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("the admin page is %d px wide on a 390 px phone", w)
		}
		viewShot(t, adm, dir, "admin-phone-en.png")
		screenshot(t, adm, dir, "admin-phone-en-full.png")
	}
}

// recipients lists who got how many emails.
func recipients(got map[string][]smtpsink.Parsed) map[string]int {
	out := map[string]int{}
	for k, v := range got {
		out[k] = len(v)
	}
	return out
}

// viewShot saves what the tab's viewport shows (a phone's screen, not the
// whole page) as dir/name.
func viewShot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
