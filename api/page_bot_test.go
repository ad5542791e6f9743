package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/engine/bagpipes"
	"pbem/events/play"
	"pbem/events/tokens"
)

func TestBotPageShowsBotsAsBots(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, tc := range []struct{ lang, mark string }{{"en", "Robot 1 (bot)"}, {"fr", "Robot 1 (robot)"}, {"it", "Robot 1 (bot)"}} {
		cg, err := e.svc.Create(context.Background(), play.CreateGame{Game: bagpipes.Name, Language: tc.lang, Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
			Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Bot: "easy"}}})
		if err != nil {
			t.Fatal(err)
		}
		b := e.browser()
		b.get("/play/" + cg.ID + "?token=" + tokens.Seat(secret, cg.ID, 0, 0))
		p := b.get("/play/" + cg.ID)
		if p.Status != http.StatusOK || !strings.Contains(p.Body, tc.mark) || strings.Contains(p.Body, "Ann (") {
			t.Fatalf("%s page: %d, lacks %q:\n%s", tc.lang, p.Status, tc.mark, p.Body)
		}
	}
}

// TestLobbyOffersBots: the lobby lets a seat be played by a bot (in the
// page's language); the proposed game, once confirmed, has that bot.
func TestLobbyOffersBots(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	b := e.browser()
	if p := b.get("/?lang=fr"); !strings.Contains(p.Body, "un robot (normal)") || !strings.Contains(p.Body, `name="kind2"`) {
		t.Fatalf("French lobby without the bot choice:\n%s", p.Body)
	}
	form, _ := lobbyForm(t, b, "en")
	form.Set("kind2", "normal")
	form.Set("email2", "")
	if p := b.post("/games", form); p.Status != http.StatusAccepted {
		t.Fatalf("propose with a bot: %d\n%s", p.Status, p.Body)
	}
	var id string
	if err := e.pool.QueryRow(context.Background(), `SELECT id FROM proposals`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(e.url+"/api/v1/confirm/"+tokens.Confirm(secret, id), "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("confirm: %d", resp.StatusCode)
	}
	sm, err := e.svc.Summary(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(sm.Seats) < 2 || sm.Seats[1].Bot != "normal" || sm.Seats[0].Bot != "" {
		t.Fatalf("seats after the lobby: %+v", sm.Seats)
	}
}

// TestAdminPageHandsASeatToABot: the admin page's form hands a seat to a
// bot and back.
func TestAdminPageHandsASeatToABot(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(bagpipes.Name, 3, "en", "")
	adm := e.browser()
	adm.get("/admin/" + id + "?token=" + tokens.Admin(secret, id, 0))
	a := adm.get("/admin/" + id)
	if !strings.Contains(a.Body, `value="bot"`) || !strings.Contains(a.Body, "a bot (normal)") {
		t.Fatalf("admin page without the bot form:\n%s", a.Body)
	}
	csrf := moveForm(t, a.Body).csrf
	for _, level := range []string{"normal", ""} {
		p := adm.post("/admin/"+id, url.Values{"csrf": {csrf}, "action": {"bot"}, "seat": {"2"}, "level": {level}})
		if p.Status != http.StatusSeeOther {
			t.Fatalf("level %q: %d\n%s", level, p.Status, p.Body)
		}
		sm, err := e.svc.Summary(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if sm.Seats[2].Bot != level {
			t.Fatalf("after handing seat 2 to %q: %+v", level, sm.Seats)
		}
	}
}
