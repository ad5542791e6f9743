package api_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/api"
	"pbem/api/inbound"
	"pbem/engine"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// TestBrowserDevMailboxOnAPhone opens the development server's mailbox
// (its list of messages, each with its reply form, and the page that says
// what became of a reply) in chromium on a 390x844 phone: the page is laid
// out at the phone's width (a viewport), and nothing is wider than the
// screen: a long link, Message-ID or address wraps, the reply box fits.
// Without the viewport the page was laid out 980 pixels wide and shrunk,
// and its links ran off it.
func TestBrowserDevMailboxOnAPhone(t *testing.T) {
	root := startBrowser(t)
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	svc := play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: store, Repo: postgres.New(pool),
		Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret})
	proc, err := inbound.New(inbound.Config{Service: svc, Ledger: notifypg.NewInbound(pool), Domain: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	mb := notifypg.NewMailbox(pool)
	hs := httptest.NewServer(api.New(api.Config{Service: svc, Mail: &api.MailConfig{Secret: secret, Prefs: notifypg.NewPrefs(pool),
		Outbox: notifypg.NewOutbox(pool), Service: svc, Mailbox: mb, Replies: proc}}))
	t.Cleanup(hs.Close)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: hs.URL, ReplyDomain: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	dev := notify.NewDevMailbox(mb, nil)
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(pool), Sender: dev, Renderer: r,
		Now: func() time.Time { return time.Now().Add(time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := svc.Create(ctx, play.CreateGame{Game: testgame.Name, Options: json.RawMessage(`{"target":25}`),
		Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
		Players:   []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	// And a message whose every field is one long word: a link, the
	// addresses, the Message-ID, the unsubscribe link.
	long := hs.URL + "/play/g1longlink?token=" + strings.Repeat("AbCdEfGh12", 16)
	if errs := dev.Send(ctx, []*notify.Message{{From: `"pbem" <pbem@localhost>`,
		To:        "bartholomew.fitzwilliam-montgomery-of-the-highlands@a-rather-long-domain.example.org",
		Subject:   "Your turn in Lords of Scotland: " + strings.Repeat("Fergusson", 8),
		Text:      "Hello,\n\nIt is your turn. Open your page:\n" + long + "\n\nReply with the number of your move.\n",
		MessageID: strings.Repeat("0123456789abcdef", 6) + "@localhost", ReplyTo: "g-" + strings.Repeat("0123456789", 6) + "@localhost",
		Unsubscribe: long + "&unsubscribe=1"}}); errs[0] != nil {
		t.Fatal(errs[0])
	}

	shots := screenshotDir(t)
	phone := tab(t, root, 390, 844, true)
	for _, pg := range []struct{ name, path string }{
		{"list", "/dev/mail"},
		{"reply answer", "/dev/mail?r=" + url.QueryEscape("refused: "+strings.Repeat("no-such-seat-address", 12))},
	} {
		within(t, phone, 20*time.Second, pg.name, chromedp.Navigate(hs.URL+pg.path), chromedp.WaitVisible(chromedp.CSS("article")))
		if n := eval[int](t, phone, `document.querySelectorAll("article").length`); n < 3 {
			t.Errorf("%s: %d messages on the page, want the invitations and the long one", pg.name, n)
		}
		if w := eval[int](t, phone, `window.innerWidth`); w != 390 {
			t.Errorf("%s: laid out %d pixels wide on a 390-pixel phone (no viewport)", pg.name, w)
		}
		if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
			wide := eval[string](t, phone, `Array.from(document.querySelectorAll("body *")).filter(function (e) {
				return e.getBoundingClientRect().right > 390.5; }).map(function (e) {
				return e.tagName + " " + Math.round(e.getBoundingClientRect().right) + ": " + e.textContent.slice(0, 40); }).slice(0, 8).join(" | ")`)
			t.Errorf("%s: %d pixels wide on a 390-pixel phone: %s", pg.name, w, wide)
		}
		screenshot(t, phone, shots, "devmail-"+strings.ReplaceAll(pg.name, " ", "-")+".png")
	}
}
