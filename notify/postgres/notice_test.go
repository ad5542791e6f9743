package postgres_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/projections/outbox"
)

// playUntilAwaited plays the first legal move of whoever is to move until
// seat is awaited, and returns the emails that sent.
func (e *storyEnv) playUntilAwaited(id string, seat int) []sentEmail {
	e.t.Helper()
	var out []sentEmail
	for range 200 {
		row, _, st := e.state(id)
		for _, s := range row.ToMove {
			if s == seat {
				return out
			}
		}
		s := row.ToMove[0]
		mv, err := json.Marshal(st.Legal(s)[0])
		if err != nil {
			e.t.Fatal(err)
		}
		if _, err := e.svc.MoveAs(context.Background(), id, s, play.MoveRequest{Version: row.Version, Move: play.PostedMove(mv)}); err != nil {
			e.t.Fatal(err)
		}
		out = append(out, e.deliver()...)
	}
	e.t.Fatalf("seat %d is never awaited", seat)
	return nil
}

// TestDeadlinesInTheSeatsTimeZone: a seat whose browser reported a time
// zone reads its deadline in that zone, named; a seat without one reads it
// in UTC, labelled as UTC. Bad zones are refused and change nothing.
func TestDeadlinesInTheSeatsTimeZone(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	seats := postgres.NewSeats(e.pool, postgres.Histories{})
	c := e.create(lords.Name, "fr", 3)
	e.deliver()
	if err := seats.SetZone(ctx, c.ID, 1, "Asia/Kolkata"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "Local", "Mars/Olympus", "../../etc/passwd", "Europe/Paris; DROP TABLE seats", strings.Repeat("A", 65)} {
		if err := seats.SetZone(ctx, c.ID, 1, bad); err == nil {
			t.Errorf("zone %q accepted", bad)
		}
	}
	sts, err := seats.Stories(ctx, []notify.StoryRequest{{GameID: c.ID, Seat: 1, Kind: outbox.Invitation},
		{GameID: c.ID, Seat: 2, Kind: outbox.Invitation}, {GameID: "nope", Seat: 1, Kind: outbox.Invitation}})
	if err != nil || len(sts) != 3 || sts[0].Zone != "Asia/Kolkata" || sts[0].Events != nil || sts[1].Zone != "" || sts[2].Zone != "" {
		t.Fatalf("stories = %+v, %v; want seat 1's zone only", sts, err)
	}
	kolkata, _ := time.LoadLocation("Asia/Kolkata")
	for _, seat := range []int{1, 2} {
		sent := e.playUntilAwaited(c.ID, seat)
		row, _, _ := e.state(c.ID)
		var mail *sentEmail
		for i := range sent {
			if sent[i].Kind == outbox.YourTurn && sent[i].Seat == seat {
				mail = &sent[i]
			}
		}
		if mail == nil {
			t.Fatalf("seat %d got no your-turn email", seat)
		}
		want := row.DeadlineAt.UTC().Format("02/01/2006 à 15:04 UTC")
		if seat == 1 {
			want = row.DeadlineAt.In(kolkata).Format("02/01/2006 à 15:04") + " (Asia/Kolkata)"
		}
		if !strings.Contains(mail.Mail.Text, "Merci de jouer avant le "+want+".") || !strings.Contains(mail.Mail.HTML, want) {
			t.Errorf("seat %d's your-turn email does not say the deadline as %q:\n%s", seat, want, mail.Mail.Text)
		}
	}
}

// TestDigestDeadlinesInTheSeatsTimeZone: a digest tells its games'
// deadlines in the zone of its first game's seat.
func TestDigestDeadlinesInTheSeatsTimeZone(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	c := e.create(lords.Name, "en", 2)
	e.deliver()
	if err := postgres.NewSeats(e.pool, postgres.Histories{}).SetZone(ctx, c.ID, 1, "America/Sao_Paulo"); err != nil {
		t.Fatal(err)
	}
	dl := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	p := outbox.Payload{To: outbox.Recipient{Seat: -1, Name: "P1", Email: "p1@example.org"}, Language: "en",
		Games: []outbox.WaitingGame{{Game: outbox.GameInfo{ID: c.ID, Name: lords.Name, Players: []string{"P0", "P1"}}, Seat: 1, Deadline: &dl}}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pool.Exec(ctx, `INSERT INTO outbox (game_id, kind, payload, next_attempt_at) VALUES ('', 'digest', $1, now())`, b); err != nil {
		t.Fatal(err)
	}
	sent := e.deliver()
	if len(sent) != 1 || !strings.Contains(sent[0].Mail.Text, "play before Tue 1 Dec 2026, 09:00 (America/Sao_Paulo)") {
		t.Fatalf("digest: %d emails\n%v", len(sent), sent)
	}
}

// TestPauseResumeAndExtendSendNotices: each admin action sends a short
// notice to the seats (a resume gives the awaited seat its your-turn email
// instead), and only a seat the game awaits reads "please play before".
func TestPauseResumeAndExtendSendNotices(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	ctx := context.Background()
	c := e.create(lords.Name, "en", 3)
	e.deliver()
	e.playUntilAwaited(c.ID, 1)
	const please = "Please play before"
	check := func(action string, sent []sentEmail, subject, line string) {
		t.Helper()
		row, _, _ := e.state(c.ID)
		awaited := map[int]bool{}
		for _, s := range row.ToMove {
			awaited[s] = true
		}
		bySeat := map[int]sentEmail{}
		for _, m := range sent {
			if _, dup := bySeat[m.Seat]; dup {
				t.Errorf("%s: seat %d got two emails", action, m.Seat)
			}
			bySeat[m.Seat] = m
		}
		for seat := range 3 {
			m, ok := bySeat[seat]
			if !ok {
				t.Errorf("%s: seat %d got no email", action, seat)
				continue
			}
			if action == "resume" && awaited[seat] {
				if m.Kind != outbox.YourTurn {
					t.Errorf("resume: awaited seat %d got a %s email, want your_turn", seat, m.Kind)
				}
				continue
			}
			if m.Kind != outbox.Notice || !strings.Contains(m.Mail.Subject, subject) || !strings.Contains(m.Mail.Text, line) {
				t.Errorf("%s: seat %d got %s %q, want a notice %q saying %q:\n%s", action, seat, m.Kind, m.Mail.Subject, subject, line, m.Mail.Text)
			}
			if got := strings.Contains(m.Mail.Text, please); got != (awaited[seat] && row.DeadlineAt != nil) {
				t.Errorf("%s: seat %d (awaited %v) reads %q: %v\n%s", action, seat, awaited[seat], please, got, m.Mail.Text)
			}
		}
	}
	if _, err := e.svc.Extend(ctx, c.ID, c.AdminToken, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	check("extend", e.deliver(), "More time to play", "The deadline is extended")
	if _, err := e.svc.Pause(ctx, c.ID, c.AdminToken, "Bob is on holiday"); err != nil {
		t.Fatal(err)
	}
	check("pause", e.deliver(), "The game is paused", "Bob is on holiday")
	if _, err := e.svc.Resume(ctx, c.ID, c.AdminToken); err != nil {
		t.Fatal(err)
	}
	check("resume", e.deliver(), "The game resumes", "The game resumes.")
	// A refused action (resuming a game that is not paused) sends nothing.
	if _, err := e.svc.Resume(ctx, c.ID, c.AdminToken); err == nil {
		t.Error("resuming a running game was accepted")
	}
	if sent := e.deliver(); len(sent) != 0 {
		t.Errorf("a refused resume sent %d emails", len(sent))
	}
}
