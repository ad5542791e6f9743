package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"pbem/engine/bagpipes"
	"pbem/events/game"
)

func TestBotPageShowsBotsAsBots(t *testing.T) {
	e := newPageEnv(t)
	for _, tc := range []struct{ lang, mark string }{{"en", "Robot 1 (bot)"}, {"fr", "Robot 1 (robot)"}, {"it", "Robot 1 (bot)"}} {
		cg, err := e.svc.Create(context.Background(), game.CreateGame{Game: bagpipes.Name, Language: tc.lang, Organiser: game.Organiser{Name: "Ann", Email: "ann@example.org"},
			Players: []game.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Bot: "easy"}}})
		if err != nil {
			t.Fatal(err)
		}
		b := e.browser()
		b.get("/play/" + cg.ID + "?token=" + game.SeatToken(secret, cg.ID, 0, 0))
		p := b.get("/play/" + cg.ID)
		if p.Status != http.StatusOK || !strings.Contains(p.Body, tc.mark) || strings.Contains(p.Body, "Ann (") {
			t.Fatalf("%s page: %d, lacks %q:\n%s", tc.lang, p.Status, tc.mark, p.Body)
		}
	}
}
