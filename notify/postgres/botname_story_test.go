package postgres_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/projections/outbox"
)

// TestYourTurnStoryNamesABotAsTheGameDoes: a your-turn email's story
// heads a bot's moves with its seat's name and the bot mark, as the play
// page's players table names that seat ("Robot 1 (robot)" in French),
// never the bare seat name. A user trial's emails said "Robot 1" where the
// history page said "a bot (normal)".
func TestYourTurnStoryNamesABotAsTheGameDoes(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	for lang, head := range map[string]string{"en": "Robot 1 (bot)", "fr": "Robot 1 (robot)", "it": "Robot 1 (bot)"} {
		c, err := e.svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"}, Game: lords.Name, Language: lang,
			Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Bot: "normal"}}})
		if err != nil {
			t.Fatal(err)
		}
		e.deliver() // the invitation
		rng := rand.New(rand.NewPCG(5, 1))
		told := 0
		for moves := 0; told < 2; moves++ {
			row, _, st := e.state(c.ID)
			if row.Ended() || moves > 100 {
				t.Fatalf("%s: %d your-turn emails told the bot's moves in %d moves", lang, told, moves)
			}
			if seat := row.ToMove[0]; seat == 1 {
				if ok, err := e.svc.PlayBot(ctx, c.ID, seat); err != nil || !ok {
					t.Fatalf("the bot's move: %v, %v", ok, err)
				}
			} else {
				legal := st.Legal(seat)
				mv, err := json.Marshal(legal[rng.IntN(len(legal))])
				if err != nil {
					t.Fatal(err)
				}
				if _, err := e.svc.MoveAs(ctx, c.ID, seat, play.MoveRequest{Version: row.Version, Move: play.PostedMove(mv)}); err != nil {
					t.Fatalf("move %s: %v", mv, err)
				}
			}
			for _, m := range e.deliver() {
				if m.Kind != outbox.YourTurn {
					continue
				}
				_, heads := storyLines(m.Mail.Text, storyIntro[lang])
				if slices.Contains(heads, "Robot 1") || !slices.Contains(heads, head) {
					t.Fatalf("%s: the story's headings %q, want the bot's moves under %q:\n%s", lang, heads, head, m.Mail.Text)
				}
				told++
			}
		}
	}
}
