package api_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/notify"
)

// TestBrowserDevMailboxOnAPhone opens the development server's mailbox
// (its list of messages, each with its reply form, and the page that says
// what became of a reply) in chromium on a 390x844 phone: the page is laid
// out at the phone's width (a viewport), and nothing is wider than the
// screen: a long link, Message-ID or address wraps, the reply box fits.
// Without the viewport the page was laid out 980 pixels wide and shrunk,
// and its links ran off it. An email's HTML part, one link away, reads at
// the phone's width too, and runs no script of its own.
func TestBrowserDevMailboxOnAPhone(t *testing.T) {
	root := startBrowser(t)
	e := newDevMailEnv(t, false) // the invitations, with their reply forms
	base := e.serveOn(t, "127.0.0.1:0")
	ctx := context.Background()
	// And a message whose every field is one long word: a link, the
	// addresses, the Message-ID, the unsubscribe link.
	long := base + "/play/g1longlink?token=" + strings.Repeat("AbCdEfGh12", 16)
	if errs := e.dev.Send(ctx, []*notify.Message{{From: `"pbem" <pbem@localhost>`,
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
		within(t, phone, 20*time.Second, pg.name, chromedp.Navigate(base+pg.path), chromedp.WaitVisible(chromedp.CSS("article")))
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

	// The invitation's HTML part, from its link on the list, reads at the
	// phone's width, as the player's mail client shows it.
	within(t, phone, 20*time.Second, "HTML part", chromedp.Navigate(base+"/dev/mail"),
		chromedp.Click(chromedp.CSS(`a[href="`+e.html+`"]`)), chromedp.WaitVisible(chromedp.CSS("body p")))
	if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 || eval[int](t, phone, `window.innerWidth`) != 390 {
		t.Errorf("the HTML part is %d pixels wide on a 390-pixel phone", w)
	}
	if text := eval[string](t, phone, `document.body.innerText`); !strings.Contains(text, "Ann") {
		t.Errorf("the HTML part does not greet its player:\n%s", text)
	}
	screenshot(t, phone, shots, "devmail-html-part.png")

	// An email's HTML runs no script there: the part is sandboxed.
	if errs := e.dev.Send(ctx, []*notify.Message{{From: "pbem@localhost", To: "ann@example.org", Subject: "scripted", Text: "scripted",
		HTML: `<!DOCTYPE html><html><head><title>quiet</title></head><body><p>scripted</p>` +
			`<script>document.title = "ran"</script><img src="data:," onerror="document.title = 'ran'"></body></html>`,
		MessageID: "scripted@localhost"}}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	within(t, phone, 20*time.Second, "scripted HTML part", chromedp.Navigate(base+"/dev/mail"),
		chromedp.Click(chromedp.CSS(`article:first-of-type a[href$="/html"]`)), chromedp.WaitVisible(chromedp.CSS("body p")))
	if title := eval[string](t, phone, `document.title`); title != "quiet" {
		t.Errorf("a script of the email's HTML ran: the title is %q", title)
	}
}
