package api_test

import (
	"context"
	"html"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

// TestHistoryTellsForcedSteps plays the test game with forced draws until
// the service plays them (both hands empty after the third round of
// cards), and reads the history page in each language: a forced step is
// told as played for its player, "the only move" (the audit page, open
// once the game has ended, names actors by the same actorWords).
func TestHistoryTellsForcedSteps(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	for lang, want := range map[string]string{"en": "played for Ann: the only move", "fr": "joué pour Ann : le seul coup possible",
		"it": "giocata per Ann: l'unica mossa possibile"} {
		id := e.createGame(testgame.Name, 2, lang, `{"target":1000,"forced":true}`)
		for i := range 6 {
			seat := i % 2
			tok := tokens.Seat(secret, id, seat, 0)
			v, err := e.svc.View(ctx, id, tok)
			if err != nil {
				t.Fatal(err)
			}
			card := ""
			for _, m := range v.LegalMoves {
				if mv := m.(testgame.Move); mv.Kind == "play" && card == "" {
					card = mv.Card
				}
			}
			if _, err := e.svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(`{"kind":"play","card":"` + card + `"}`)}); err != nil {
				t.Fatalf("%s move %d: %v", lang, i, err)
			}
		}
		b := e.browser()
		b.open(id, 1)
		p := b.get("/play/" + id + "/history")
		if body := html.UnescapeString(p.Body); !strings.Contains(body, want) {
			t.Errorf("%s: the history page does not say %q:\n%s", lang, want, p.Body)
		}
	}
}
