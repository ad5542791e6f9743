package postgres_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/projections"
	"pbem/projections/testgame"
)

// TestReminderSaysWhatHappensAndListsTheMoves: a reminder tells the
// deadline in the player's time zone (told by the player's page in another
// game: this game's page was never opened), says what happens at the
// deadline under the game's policy, and numbers the moves, so that it can
// be answered with a number; a reminder whose seat played meanwhile is not
// sent (notify.Freshness).
func TestReminderSaysWhatHappensAndListsTheMoves(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ policy, says string }{
		{projections.PolicyDefaultMove, "the game plays a default move for you"},
		{projections.PolicyPause, "the game is paused until the organiser resumes it"},
	} {
		t.Run(c.policy, func(t *testing.T) {
			r := newRig(t)
			ctx := context.Background()
			rd, err := notify.NewRenderer(notify.RenderConfig{Secret: []byte("secret"), PublicURL: "https://pbem.example.org",
				ReplyDomain: "reply.example.org"})
			if err != nil {
				t.Fatal(err)
			}
			seats := postgres.NewSeats(r.pool, r.hist)
			w, err := notify.NewWorker(notify.WorkerConfig{Store: postgres.NewOutbox(r.pool), Freshness: postgres.NewOutbox(r.pool),
				Sender: smtpSender(t, r.sink), Renderer: rd, Seats: seats, Now: r.clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			r.work = w
			sched, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(r.pool), Moves: r.svc,
				Digests: postgres.NewDigester(r.pool, r.hist), Timeouter: r.svc, Now: r.clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			r.sched = sched
			create := func() string {
				g, err := r.svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
					Game: testgame.Name, Language: "en", Options: json.RawMessage(`{"target":25}`),
					Players:      []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
					TurnDeadline: time.Hour, ReminderBefore: 10 * time.Minute, TimeoutPolicy: c.policy})
				if err != nil {
					t.Fatal(err)
				}
				return g.ID
			}
			other, id := create(), create()
			// Both players' pages of the other game told their zone.
			for seat := range 2 {
				if err := seats.SetZone(ctx, other, seat, "Asia/Tokyo"); err != nil {
					t.Fatal(err)
				}
			}
			sent := len(r.mail(0))
			r.clock.Add(51 * time.Minute)
			if res := r.tick(); res.Reminded != 2 {
				t.Fatalf("tick at reminder time: %+v", res)
			}
			g := r.game(id)
			var rem string
			for _, m := range r.mail(sent) {
				if strings.HasPrefix(m.Subject, "Your turn ends") && strings.Contains(m.Text, "/play/"+id+"?") {
					rem = m.Text
				}
			}
			if rem == "" {
				t.Fatal("no reminder for the game")
			}
			sv, err := playtest.SeatView(ctx, r.svc, rigSecret, id, g.ToMove[0])
			if err != nil {
				t.Fatal(err)
			}
			for i, m := range sv.LegalMoves {
				if line := "\n" + strconv.Itoa(i+1) + ". " + m.Label() + "\n"; !strings.Contains(rem, line) {
					t.Errorf("the reminder does not list %q:\n%s", line, rem)
				}
			}
			tokyo := g.DeadlineAt.In(time.FixedZone("JST", 9*3600)).Format("15:04")
			if !strings.Contains(rem, c.says) || !strings.Contains(rem, tokyo) {
				t.Errorf("the reminder does not say %q, or the deadline in Tokyo (%s):\n%s", c.says, tokyo, rem)
			}

			// A reminder for a seat that plays before it is sent is dropped.
			r.clock.Add(time.Hour) // the deadline passes: a new one comes with the next turn
			r.tick()
			r.mail(len(r.sink.Messages()))
			before := len(r.sink.Messages())
			g = r.game(id)
			if g.Status != projections.StatusActive {
				return // the pause policy: no next turn
			}
			r.clock.Add(51 * time.Minute)
			if res := r.tick(); res.Reminded == 0 {
				t.Fatalf("no second reminder: %+v", res)
			}
			seat := g.ToMove[0]
			sv, err = playtest.SeatView(ctx, r.svc, rigSecret, id, seat)
			if err != nil {
				t.Fatal(err)
			}
			mv, _ := json.Marshal(sv.LegalMoves[0])
			if _, err := r.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: sv.Version, Move: play.PostedMove(mv)}); err != nil {
				t.Fatal(err)
			}
			for _, m := range r.mail(before) {
				if strings.HasPrefix(m.Subject, "Your turn ends") && strings.Contains(m.Text, "/play/"+id+"?") && rcpt(t, m) == []string{"ann@example.org", "bob@example.org"}[seat] {
					t.Errorf("a reminder was sent to seat %d after it played:\n%s", seat, m.Text)
				}
			}
		})
	}
}
