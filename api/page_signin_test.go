package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

// TestPagesSigninMyGamesAndBlock walks the pages of My games and of the
// block link: the sign-in form answers the same for a known and an
// unknown address; the emailed link shows one button, works once and
// opens My games, which lists the address's games only and opens its seat;
// the block link refuses invitations, which the lobby then names beside
// the player's email.
func TestPagesSigninMyGamesAndBlock(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(testgame.Name, 2, "fr", `{}`) // Ann and Bob
	other := e.svc
	cg, err := other.Create(context.Background(), play.CreateGame{Organiser: play.Organiser{Name: "Zed", Email: "zed@example.org"},
		Game: testgame.Name, Players: []play.NewPlayer{{Name: "Zed", Email: "zed@example.org"}, {Name: "Yan", Email: "yan@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	b := e.browser()
	f := b.get("/signin?lang=fr")
	if f.Status != http.StatusOK {
		t.Fatalf("sign-in form: %d", f.Status)
	}
	csrf := moveForm(t, f.Body).csrf
	known := b.post("/signin", url.Values{"csrf": {csrf}, "email": {"bob@example.org"}, "page_lang": {"fr"}})
	unknown := b.post("/signin", url.Values{"csrf": {csrf}, "email": {"nobody@example.org"}, "page_lang": {"fr"}})
	if known.Status != http.StatusOK || unknown.Status != known.Status || known.Body != unknown.Body || !strings.Contains(known.Body, `id="signin-sent"`) {
		t.Fatalf("known: %d, unknown: %d, same body %v", known.Status, unknown.Status, known.Body == unknown.Body)
	}
	var sid string
	if err := e.pool.QueryRow(context.Background(), `SELECT id FROM signin_links WHERE email = 'bob@example.org'`).Scan(&sid); err != nil {
		t.Fatal(err)
	}
	tok := tokens.Signin(secret, sid)
	if p := b.get("/signin/" + tok + "?lang=fr"); p.Status != http.StatusOK || !strings.Contains(p.Body, `id="signin-use"`) {
		t.Fatalf("link page: %d", p.Status)
	}
	if p := b.post("/signin/"+tok, url.Values{}); p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/me" {
		t.Fatalf("sign in: %d %q", p.Status, p.Header.Get("Location"))
	}
	if p := e.browser().post("/signin/"+tok, url.Values{}); p.Status != http.StatusUnauthorized {
		t.Fatalf("the link used again: %d", p.Status)
	}
	me := b.get("/me?lang=fr")
	if me.Status != http.StatusOK || !strings.Contains(me.Body, `data-game="`+id+`"`) || strings.Contains(me.Body, cg.ID) || !strings.Contains(me.Body, "Mes parties") {
		t.Fatalf("My games: %d\n%s", me.Status, me.Body)
	}
	if p := b.get("/me/play/" + id); p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/play/"+id {
		t.Fatalf("open my seat: %d %q", p.Status, p.Header.Get("Location"))
	}
	if p := b.get("/play/" + id); p.Status != http.StatusOK {
		t.Fatalf("the seat after My games: %d", p.Status)
	}
	if p := b.get("/me/play/" + cg.ID); p.Status != http.StatusNotFound {
		t.Fatalf("another's game from My games: %d", p.Status)
	}
	if p := e.browser().get("/me"); p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/signin" {
		t.Fatalf("My games without a session: %d", p.Status)
	}

	// Bob refuses invitations with one click; the lobby then names him.
	block := tokens.Block(secret, "bob@example.org")
	if p := b.get("/mail/block?token=" + url.QueryEscape(block)); p.Status != http.StatusOK || !strings.Contains(p.Body, `id="block"`) {
		t.Fatalf("block page: %d", p.Status)
	}
	if p := b.get("/mail/block?token=x." + url.QueryEscape(block)); p.Status != http.StatusUnauthorized {
		t.Fatalf("forged block link: %d", p.Status)
	}
	if p := b.post("/mail/block", url.Values{"token": {block}, "action": {"block"}}); p.Status != http.StatusOK || !strings.Contains(p.Body, `id="blocked"`) {
		t.Fatalf("block: %d", p.Status)
	}
	form, _ := lobbyForm(t, b, "fr")
	form.Set("game", testgame.Name)
	form.Del("opt_bruce")
	form.Set("page_lang", "fr")
	p := b.post("/games", form)
	if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "Cette adresse refuse les invitations.") {
		t.Fatalf("a blocked player: %d\n%s", p.Status, p.Body)
	}
}
