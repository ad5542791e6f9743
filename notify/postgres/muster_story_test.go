package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/projections/outbox"
)

// TestYourTurnStoriesStartAfterTheMusterAnswer: a seat's answer to the
// muster ends what its your-turn emails tell, as a move does (what it
// answered, it knows). Two seats say yes by email, one after the other;
// the last answer begins the game. No your-turn email's story ("Since
// your last move") then tells its seat its own answer, each tells exactly
// the seat's redacted history after its last move or answer
// (expectedStory), and the first one the seat that answered first
// receives tells the other's answer and the start. (A your-turn email
// whose story is empty, as that of a seat whose own answer began the game
// and who moves first would be, tells the append that made it the seat's
// turn instead, as after a seat's move that leaves it to move again.)
func TestYourTurnStoriesStartAfterTheMusterAnswer(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	c, err := e.svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Game: lords.Name, Language: "en", Muster: 24 * time.Hour, MusterDefault: "bot",
		Players: []play.NewPlayer{{Name: "P0", Email: "p0@example.org"}, {Name: "P1", Email: "p1@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	e.deliver() // the invitations
	for seat := range 2 {
		if err := e.svc.AnswerAs(ctx, c.ID, seat, true, fmt.Sprintf("answer-%d", seat)); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(14, 46))
	var told [2][]string // the your-turn stories each seat was sent
	for moves := 0; moves < 6; moves++ {
		for _, m := range e.deliver() {
			if m.Kind != outbox.YourTurn {
				continue
			}
			lines, _ := storyLines(m.Mail.Text, storyIntro["en"])
			if want := e.expectedStory(c.ID, m.Seat, m.Version); !slices.Equal(lines, want) {
				t.Errorf("your-turn email to seat %d at v%d tells %q, want %q", m.Seat, m.Version, lines, want)
			}
			if own := fmt.Sprintf("P%d will play.", m.Seat); slices.Contains(lines, own) {
				t.Errorf("your-turn email to seat %d tells it its own answer %q since its last move:\n%s", m.Seat, own, m.Mail.Text)
			}
			told[m.Seat] = append(told[m.Seat], strings.Join(lines, " | "))
		}
		row, _, st := e.state(c.ID)
		seat := row.ToMove[0]
		legal := st.Legal(seat)
		mv, err := json.Marshal(legal[rng.IntN(len(legal))])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.MoveAs(ctx, c.ID, seat, play.MoveRequest{Version: row.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatalf("move %s: %v", mv, err)
		}
	}
	if len(told[0]) == 0 || !strings.HasPrefix(told[0][0], "P1 will play. | Everyone has answered: the game begins.") {
		t.Errorf("the first your-turn email of the seat that answered first tells %q: want the other's answer and the start first", told[0])
	}
	if len(told[1]) == 0 {
		t.Error("the seat that answered last was sent no your-turn email")
	}
}
