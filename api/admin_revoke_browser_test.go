package api_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/events/tokens"
)

// TestBrowserAdminRevoke replaces the admin link on a phone (390x844) in
// English, French and Italian: the admin page's control (a box to tick,
// then the button), the page that says a new link was emailed, and the old
// link's page afterwards. PBEM_SCREENSHOTS keeps the screenshots.
func TestBrowserAdminRevoke(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)
	says := map[string][2]string{
		"en": {"A new one was emailed", "replaced by a newer one"},
		"fr": {"Un nouveau a été envoyé", "remplacé par un plus récent"},
		"it": {"Uno nuovo è stato inviato", "sostituito da uno più recente"},
	}
	for _, lang := range []string{"en", "fr", "it"} {
		id := e.createGame("lords-of-scotland", 2, lang, "")
		link := e.url + "/admin/" + id + "?token=" + url.QueryEscape(tokens.Admin(secret, id, 0))
		phone := tab(t, root, 390, 844, true)
		within(t, phone, 30*time.Second, lang+" admin page",
			chromedp.Navigate(link),
			chromedp.WaitVisible(chromedp.CSS("#revoke")),
			chromedp.ScrollIntoView(chromedp.CSS("#revoke")),
		)
		if unlabelled := eval[int](t, phone, a11yProblems); unlabelled != 0 {
			t.Errorf("%s: the admin page has %d controls without a label or buttons outside forms", lang, unlabelled)
		}
		screenshot(t, phone, shots, "admin-revoke-form-"+lang+".png")
		within(t, phone, 30*time.Second, lang+" revoke",
			chromedp.Click(chromedp.CSS(`#revoke input[name="confirm"]`)),
			chromedp.Click(chromedp.CSS(`#revoke button[type="submit"]`)),
			chromedp.WaitVisible(chromedp.CSS(`p.notice[role="status"]`)),
		)
		if got := eval[string](t, phone, `document.body.innerText`); !strings.Contains(got, says[lang][0]) {
			t.Fatalf("%s: the page after the revocation says:\n%s", lang, got)
		}
		screenshot(t, phone, shots, "admin-revoked-"+lang+".png")
		// An error page is in the browser's language (it may not know the
		// game's): ?lang= stands for the organiser's browser.
		within(t, phone, 30*time.Second, lang+" old link",
			chromedp.Navigate(link+"&lang="+lang),
			chromedp.WaitVisible(chromedp.CSS(`p.notice.bad`)),
		)
		if got := eval[string](t, phone, `document.body.innerText`); !strings.Contains(got, says[lang][1]) {
			t.Fatalf("%s: the old link's page says:\n%s", lang, got)
		}
		screenshot(t, phone, shots, "admin-old-link-"+lang+".png")
	}
}
