package api_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
)

// signInAs signs b in as email through the sign-in form and its link.
func signInAs(t *testing.T, e *pageEnv, b *browser, email string) {
	t.Helper()
	csrf := moveForm(t, b.get("/signin").Body).csrf
	if p := b.post("/signin", url.Values{"csrf": {csrf}, "email": {email}}); p.Status != http.StatusOK {
		t.Fatalf("sign-in request: %d", p.Status)
	}
	var sid string
	if err := e.pool.QueryRow(context.Background(), `SELECT id FROM signin_links WHERE email = $1 ORDER BY created_at DESC LIMIT 1`, email).Scan(&sid); err != nil {
		t.Fatal(err)
	}
	if p := b.post("/signin/"+tokens.Signin(secret, sid), url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", p.Status)
	}
}

// TestMyGamesOrganisedAndFriendlyDates: My games lists the games the
// address organises with a link to each admin page (which opens it
// without a token in the URL, and only for its organiser), and tells
// deadlines as the pages do ("Sunday 18:00"), not "2026-11-29 04:42:24".
func TestMyGamesOrganisedAndFriendlyDates(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	cg, err := e.svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Zed", Email: "zed@example.org"},
		Game: lords.Name, Language: "en", Players: []play.NewPlayer{{Name: "Zed", Email: "zed@example.org"}, {Name: "Yan", Email: "yan@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	other := e.createGame(lords.Name, 2, "en", "") // organised by org@example.org
	zed := e.browser()
	signInAs(t, e, zed, "zed@example.org")
	me := zed.get("/me?lang=en")
	if me.Status != http.StatusOK || !strings.Contains(me.Body, "Games you organise") || !strings.Contains(me.Body, `href="/me/admin/`+cg.ID+`"`) ||
		strings.Contains(me.Body, `/me/admin/`+other) {
		t.Fatalf("My games of the organiser: %d\n%s", me.Status, me.Body)
	}
	if regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d`).MatchString(me.Body) {
		t.Errorf("My games shows a raw date:\n%s", me.Body)
	}
	if !regexp.MustCompile(`(today|tomorrow|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d\d:\d\d`).MatchString(me.Body) {
		t.Errorf("My games tells no friendly deadline:\n%s", me.Body)
	}
	p := zed.get("/me/admin/" + cg.ID)
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/admin/"+cg.ID || strings.Contains(p.Header.Get("Location"), "token") {
		t.Fatalf("open the admin page from My games: %d %q", p.Status, p.Header.Get("Location"))
	}
	if a := zed.get("/admin/" + cg.ID); a.Status != http.StatusOK || !strings.Contains(a.Body, `id="seats"`) {
		t.Fatalf("the admin page after My games: %d", a.Status)
	}
	if p := zed.get("/me/admin/" + other); p.Status != http.StatusNotFound {
		t.Errorf("another organiser's game from My games: %d", p.Status)
	}
	if p := e.browser().get("/me/admin/" + cg.ID); p.Status == http.StatusSeeOther && p.Header.Get("Location") == "/admin/"+cg.ID {
		t.Errorf("the admin page opened without a session")
	}
}
