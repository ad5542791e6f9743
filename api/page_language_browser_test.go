package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/notify/smtpsink"
)

// waitLang waits until the tab's page is in lang (its <html lang>). It
// asks again while a navigation replaces the page under the question.
func waitLang(t *testing.T, tb context.Context, lang string) {
	t.Helper()
	expr := `document.readyState === "complete" && document.documentElement.lang === "` + lang + `" && !!document.querySelector("main")`
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, cancel := context.WithTimeout(tb, 5*time.Second)
		ok, err := chromedp.Run(c, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page is not in %s (%v)", lang, err)
		}
		within(t, tb, 5*time.Second, "wait", chromedp.Sleep(100*time.Millisecond))
	}
}

// chooseLang picks lang in the page's language menu and sends it, as a
// player does (the menu sends itself on change; requestSubmit is the same
// form post).
func chooseLang(t *testing.T, tb context.Context, lang string) {
	t.Helper()
	eval[bool](t, tb, `(function () { var s = document.querySelector("form.langmenu select[name=lang]");
  s.value = "`+lang+`"; s.form.requestSubmit(); return true; })()`)
	waitLang(t, tb, lang)
}

// axeClean fails the test on a serious or critical axe violation of the
// tab's page, naming the elements at fault.
func axeClean(t *testing.T, tb context.Context, src, what string) {
	t.Helper()
	for _, v := range axeRun(t, tb, src) {
		var where []string
		for _, n := range v.Nodes {
			b, _ := json.Marshal(n.Target)
			where = append(where, string(b))
		}
		t.Errorf("%s: %s %s: %s at %s", what, v.Impact, v.ID, v.Help, strings.Join(where, " "))
	}
}

// fitsAndAxeClean fails the test on a serious or critical axe violation
// of the tab's page (axeClean) or if the page is wider than width: it
// scrolls sideways.
func fitsAndAxeClean(t *testing.T, tb context.Context, src, what string, width int64) {
	t.Helper()
	axeClean(t, tb, src, what)
	if w := eval[int](t, tb, `document.documentElement.scrollWidth`); w > int(width) {
		t.Errorf("%s is %d px wide: it scrolls sideways", what, w)
	}
}

// keepShot saves the tab's page as name in dir when PBEM_SCREENSHOTS asks
// for the screenshots (they are looked at, not compared; a phone-sized
// page of 8000 pixels takes long on a loaded machine).
func keepShot(t *testing.T, tb context.Context, dir, name string) {
	t.Helper()
	if os.Getenv("PBEM_SCREENSHOTS") == "" {
		return
	}
	c, cancel := context.WithTimeout(tb, 90*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.FullScreenshot(100)) // 100: PNG (below: JPEG)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// showMail opens an email's HTML part in the tab and takes its screenshot.
func showMail(t *testing.T, tb context.Context, dir, name string, m smtpsink.Parsed) {
	t.Helper()
	within(t, tb, 20*time.Second, "mail "+name, chromedp.Navigate("data:text/html;charset=utf-8,"+url.PathEscape(m.HTML)),
		chromedp.WaitVisible(chromedp.CSS("body")))
	keepShot(t, tb, dir, name)
}

// TestBrowserLanguageMenuFollowsTheReader: one Lords of Scotland game seen
// by Ann (English), Bob (French) and Cid (Italian) in chromium on a phone
// (390x844). Each play page mid-game is in its reader's language, as is
// each one's email; the admin page is in the organiser's. Ann picks
// Italian in her page's menu (POST /play/{game}/language): the page comes
// back in Italian, and her next email (the pause notice) is Italian while
// Bob's stays French. On a page of no seat (the lobby) the menu (POST
// /language) switches the page and the browser keeps it (sign-in), while
// Bob's seat still reads French. Every page is
// axe clean. Screenshots in PBEM_SCREENSHOTS when set.
func TestBrowserLanguageMenuFollowsTheReader(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	e := newPageEnv(t)
	dir := screenshotDir(t)
	ctx := context.Background()
	people := []struct{ name, lang string }{{"Ann", "en"}, {"Bob", "fr"}, {"Cid", "it"}}
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name, Language: "en"}
	for _, p := range people {
		req.Players = append(req.Players, play.NewPlayer{Name: p.name, Email: strings.ToLower(p.name) + "@example.org", Language: p.lang})
	}
	cg, err := e.svc.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	id := cg.ID
	mailer := newChatMailer(t, e)
	e.playToEnd(id, 3, 7) // mid-game
	if e.toMove(id) < 0 {
		t.Fatal("the game ended")
	}
	// Each one's latest email, in their language, as a phone shows it.
	mails := mailer.send()
	mtab := tab(t, root, 390, 844, true)
	words := map[string]string{"en": "Lords of Scotland", "fr": "Lords of Scotland", "it": "Lords of Scotland"}
	greet := map[string]string{"en": "Hello Ann", "fr": "Bonjour Bob", "it": "Ciao Cid"}
	for i, p := range people {
		got := mails[strings.ToLower(p.name)+"@example.org"]
		if len(got) == 0 {
			t.Fatalf("%s got no email: %v", p.name, mails)
		}
		last := got[len(got)-1]
		if !strings.Contains(last.Text, greet[p.lang]) || !strings.Contains(last.Text, words[p.lang]) {
			t.Errorf("%s's email is not in %s:\n%s", p.name, p.lang, last.Text)
		}
		showMail(t, mtab, dir, fmt.Sprintf("mail-%d-%s-%s.png", i, p.lang, strings.ToLower(p.name)), last)
	}

	// The play pages, each in its reader's language.
	tabs := make([]context.Context, len(people))
	for i, p := range people {
		tabs[i] = tab(t, root, 390, 844, true)
		within(t, tabs[i], 20*time.Second, p.name+"'s link",
			chromedp.Navigate(e.url+"/play/"+id+"?token="+url.QueryEscape(tokens.Seat(secret, id, i, 0))))
		waitLang(t, tabs[i], p.lang)
		axeClean(t, tabs[i], src, p.name+"'s play page")
		keepShot(t, tabs[i], dir, fmt.Sprintf("play-%d-%s-%s.png", i, p.lang, strings.ToLower(p.name)))
	}
	// The organiser's admin page mid-game.
	atab := tab(t, root, 390, 844, true)
	within(t, atab, 20*time.Second, "admin link", chromedp.Navigate(e.url+"/admin/"+id+"?token="+url.QueryEscape(cg.AdminToken)))
	waitLang(t, atab, "en")
	axeClean(t, atab, src, "admin page")
	keepShot(t, atab, dir, "admin-mid-game.png")

	// Ann reads Italian from now on: her page, and her next email.
	chooseLang(t, tabs[0], "it")
	if path := eval[string](t, tabs[0], `location.pathname`); path != "/play/"+id {
		t.Errorf("after the menu Ann is on %s, want /play/%s", path, id)
	}
	axeClean(t, tabs[0], src, "Ann's play page in Italian")
	keepShot(t, tabs[0], dir, "play-0-en-ann-chose-it.png")
	within(t, tabs[0], 20*time.Second, "Ann's page again", chromedp.Reload())
	waitLang(t, tabs[0], "it")
	mailer.send()
	if _, err := e.svc.Pause(ctx, id, cg.AdminToken, ""); err != nil {
		t.Fatal(err)
	}
	mails = mailer.send()
	want := map[string]string{"ann": "La partita è in pausa", "bob": "La partie est en pause", "cid": "La partita è in pausa"}
	for who, w := range want {
		got := mails[who+"@example.org"]
		if len(got) != 1 || !strings.Contains(got[0].Text, w) {
			t.Errorf("%s's pause notice lacks %q: %v", who, w, got)
		}
	}

	// A page of no seat (the lobby): the menu switches it, and the
	// browser keeps it for the other pages of no seat (sign-in).
	within(t, tabs[1], 20*time.Second, "the lobby", chromedp.Navigate(e.url+"/"))
	chooseLang(t, tabs[1], "it")
	if path := eval[string](t, tabs[1], `location.pathname`); path != "/" {
		t.Errorf("after the menu Bob is on %s, want /", path)
	}
	axeClean(t, tabs[1], src, "the lobby in Italian")
	within(t, tabs[1], 20*time.Second, "sign-in", chromedp.Navigate(e.url+"/signin"))
	waitLang(t, tabs[1], "it")
	// Bob's seat still reads French: /language is the browser's choice.
	within(t, tabs[1], 20*time.Second, "Bob's page", chromedp.Navigate(e.url+"/play/"+id))
	waitLang(t, tabs[1], "fr")
}
