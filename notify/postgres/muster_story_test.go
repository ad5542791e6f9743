package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/projections/outbox"
)

// TestYourTurnStoriesStartAfterTheMusterAnswer: a seat's answer to the
// muster ends what its your-turn emails tell, as a move does (what it
// answered, it knows). Two seats say yes by email, one after the other
// (in both orders); the last answer begins the game. No email then tells
// a seat its own answer (the start's notice and a your-turn email whose
// story is empty tell the append's lines without it), each your-turn
// email's story ("Since your last move") is exactly the seat's redacted
// history after its last move or answer (expectedStory), and the first
// one the seat that answered first receives tells the other's answer and
// the start.
func TestYourTurnStoriesStartAfterTheMusterAnswer(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		t.Run(fmt.Sprintf("P%d_then_P%d", order[0], order[1]), func(t *testing.T) {
			e.t = t
			c, err := e.svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
				Game: lords.Name, Language: "en", Muster: 24 * time.Hour, MusterDefault: "bot",
				Players: []play.NewPlayer{{Name: "P0", Email: "p0@example.org"}, {Name: "P1", Email: "p1@example.org"}}})
			if err != nil {
				t.Fatal(err)
			}
			e.deliver() // the invitations
			for _, seat := range order {
				if err := e.svc.AnswerAs(ctx, c.ID, seat, true, fmt.Sprintf("answer-%d", seat)); err != nil {
					t.Fatal(err)
				}
			}
			rng := rand.New(rand.NewPCG(14, 46))
			var stories [2][]string // the your-turn stories each seat was sent
			heard := told{}
			for moves := 0; moves < 6; moves++ {
				for _, m := range e.deliver() {
					if own := fmt.Sprintf("P%d will play.", m.Seat); strings.Contains(m.Mail.Text, own) {
						t.Errorf("%s email to seat %d tells it its own answer %q:\n%s", m.Kind, m.Seat, own, m.Mail.Text)
					}
					lines, _ := heard.check(e, c.ID, m, "en")
					if m.Kind == outbox.YourTurn {
						stories[m.Seat] = append(stories[m.Seat], strings.Join(lines, " | "))
					}
				}
				e.playRandom(c.ID, rng)
			}
			first, last := order[0], order[1]
			want := fmt.Sprintf("P%d will play. | Everyone has answered: the game begins.", last)
			if len(stories[first]) == 0 || !strings.HasPrefix(stories[first][0], want) {
				t.Errorf("the first your-turn email of P%d, who answered first, tells %q: want %q first", first, stories[first], want)
			}
			if len(stories[last]) == 0 {
				t.Errorf("P%d, who answered last, was sent no your-turn email", last)
			}
		})
	}
}
