package api_test

import (
	"context"
	"html"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"pbem/engine/lords"
	"pbem/events/tokens"
)

// TestAuditReadsAsAStory: an ended game's audit names who acted as a
// reader says it (the player, "the organiser", the bot by the seat it
// played, "Bob (bot)", as the play page names it), never the ids "admin"
// or "bot:easy", and tells each time in the reader's
// words and zone, not as a raw timestamp (issue #43), in each language.
func TestAuditReadsAsAStory(t *testing.T) {
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame(lords.Name, 2, "en", "")
	admin := tokens.Admin(secret, id, 0)
	seat := e.toMove(id)
	if _, err := e.svc.SeatBot(ctx, id, admin, seat, "easy"); err != nil {
		t.Fatal(err)
	}
	if played, err := e.svc.PlayBot(ctx, id, seat); err != nil || !played {
		t.Fatalf("the bot's move: %v, %v", played, err)
	}
	if _, err := e.svc.SeatBot(ctx, id, admin, seat, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Abort(ctx, id, admin); err != nil {
		t.Fatal(err)
	}
	name := []string{"Ann", "Bob"}[seat]
	words := map[string][2]string{
		"en": {"the organiser", name + " (bot)"},
		"fr": {"l'organisateur·rice", name + " (robot)"},
		"it": {"l'organizzatore", name + " (bot)"},
	}
	raw := regexp.MustCompile(`>\d{4}-\d\d-\d\dT\d\d:\d\d`)
	for lang, w := range words {
		b := e.browser()
		b.get("/?lang=" + lang) // the reader's language
		page := b.get("/games/" + id + "/audit?lang=" + lang)
		body := html.UnescapeString(page.Body)
		actors := map[string]int{}
		for _, r := range reAuditRow.FindAllStringSubmatch(body, -1) {
			actors[r[3]]++
		}
		if page.Status != 200 || actors[w[0]] < 3 || actors[w[1]] != 1 || actors["admin"]+actors["bot:easy"] != 0 {
			t.Errorf("%s: the audit's actors %v, want %q for the organiser's acts and %q for the bot's move", lang, actors, w[0], w[1])
		}
		if raw.MatchString(body) {
			t.Errorf("%s: the audit shows a raw timestamp: %s", lang, raw.FindString(body))
		}
	}
}

// TestMyGamesInTheReadersLanguage: My games tells each game's last line in
// the reader's language, not in the language of each game (issue #43).
func TestMyGamesInTheReadersLanguage(t *testing.T) {
	e := newPageEnv(t)
	ctx := context.Background()
	fr := e.createGame(lords.Name, 2, "fr", "")
	it := e.createGame(lords.Name, 2, "it", "")
	for _, id := range []string{fr, it} {
		if err := e.svc.ChatAs(ctx, id, 1, "salut", "chat-"+id); err != nil {
			t.Fatal(err)
		}
	}
	b := e.browser()
	signInAs(t, e, b, "ann@example.org")
	sess := sessionCookie(t, b, e)
	_, own, err := e.svc.MyGames(ctx, sess) // each line in its game's language
	if err != nil || len(own) != 2 {
		t.Fatalf("Ann's games: %d, %v", len(own), err)
	}
	_, en, err := e.svc.MyGamesIn(ctx, sess, "en")
	if err != nil {
		t.Fatal(err)
	}
	me := html.UnescapeString(b.get("/me?lang=en").Body)
	for i := range own {
		if own[i].LastMove == en[i].LastMove || !strings.Contains(en[i].LastMove, "Bob") {
			t.Fatalf("game %s: the English line %q is the game's %q", own[i].GameID, en[i].LastMove, own[i].LastMove)
		}
		if strings.Contains(me, own[i].LastMove) || !strings.Contains(me, en[i].LastMove) {
			t.Errorf("My games in English tells %q, not %q:\n%s", own[i].LastMove, en[i].LastMove, me)
		}
	}
}

// sessionCookie is the session b holds after signInAs.
func sessionCookie(t *testing.T, b *browser, e *pageEnv) string {
	t.Helper()
	u, err := url.Parse(e.url)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range b.jar.Cookies(u) {
		if c.Name == "pbem_session" {
			return c.Value
		}
	}
	t.Fatal("no session cookie")
	return ""
}

// TestItalianSaysBot: the Italian catalogs (pages, emails, the service's
// event lines, each engine's) say "bot", never "robot" beside it (issue
// #43). French says "robot" throughout.
func TestItalianSaysBot(t *testing.T) {
	files, err := filepath.Glob("../*/i18n/it.json")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("../*/*/i18n/it.json")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	if len(files) < 4 {
		t.Fatalf("Italian catalogs found: %v", files)
	}
	robot := regexp.MustCompile(`(?i)\brobot`)
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if robot.MatchString(l) {
				t.Errorf("%s:%d says robot: %s", f, i+1, strings.TrimSpace(l))
			}
		}
	}
}
