package postgres_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pbem/events/pbemevent"
	play1 "pbem/events/play"
	playpg "pbem/events/play/postgres"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
	"pbem/projections/testgame"
)

type outboxRow struct {
	Seat    int
	Kind    outbox.Kind
	Payload outbox.Payload
	Raw     string
	Version int64
}

// TestOutboxRows checks the emails the service queues: one invitation per
// seat at creation, your_turn to each seat that starts being awaited,
// round_end and game_over to everyone; and that no payload holds a token,
// the seed, or a card hidden from its recipient.
func TestOutboxRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := time.Now().UTC()
	svc, repo, _, pool := newServiceClock(t, &clock)
	c := create(t, svc, 3)
	read := func() []outboxRow {
		rows, err := pool.Query(ctx, `SELECT seat, kind, payload::text, event_version FROM outbox WHERE game_id = $1 ORDER BY id`, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []outboxRow
		for rows.Next() {
			var r outboxRow
			if err := rows.Scan(&r.Seat, &r.Kind, &r.Raw, &r.Version); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(r.Raw), &r.Payload); err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	rows := read()
	if len(rows) != 3 {
		t.Fatalf("%d rows after creation, want 3 invitations", len(rows))
	}
	for i, r := range rows {
		p := r.Payload
		if r.Kind != outbox.Invitation || r.Seat != i || p.To.Seat != i || p.To.Email == "" || p.Language != "en" ||
			p.Game.ID != c.ID || len(p.Game.Players) != 3 || p.Deadline == nil || p.Version != 1 {
			t.Fatalf("invitation %d: %+v", i, r)
		}
	}
	playSome(t, svc, repo, c.ID, 1000, rand.New(rand.NewPCG(9, 9)))
	a, err := svc.Audit(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	seed := a.Seed
	rows = read()
	kinds := map[outbox.Kind]int{}
	for _, r := range rows {
		kinds[r.Kind]++
		for seat := range 3 {
			if strings.Contains(r.Raw, tokens.Seat(secret, c.ID, seat, 0)) {
				t.Fatalf("%s row holds a token", r.Kind)
			}
		}
		if strings.Contains(r.Raw, seed) || strings.Contains(r.Raw, "admin") && strings.Contains(r.Raw, "token\"") {
			t.Fatalf("%s row holds a secret: %s", r.Kind, r.Raw)
		}
		// The lines are public: a drawn card never shows.
		for _, l := range r.Payload.Lines {
			if strings.Contains(l, "draws c") {
				t.Fatalf("%s row shows a drawn card: %q", r.Kind, l)
			}
		}
	}
	// Every move but the last hands the turn to another seat of the three:
	// one your_turn each. (The game's length depends on its random seed.)
	var moves int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM move_requests WHERE game_id = $1`, c.ID).Scan(&moves); err != nil {
		t.Fatal(err)
	}
	if moves < 3 || kinds[outbox.YourTurn] != moves-1 || kinds[outbox.RoundEnd] < 1 || kinds[outbox.GameOver] != 3 {
		t.Fatalf("kinds %v after %d moves", kinds, moves)
	}
	last := rows[len(rows)-1]
	if last.Kind != outbox.GameOver || len(last.Payload.Ranking) != 3 || last.Payload.Summary == "" {
		t.Fatalf("last row %+v", last)
	}
	// your_turn goes to the seat that is now awaited.
	for _, r := range rows {
		if r.Kind == outbox.YourTurn && r.Version > 1 {
			var who int
			if err := pool.QueryRow(ctx, `SELECT (data->>'seat')::int FROM events WHERE stream = $1 AND version = $2`, c.ID, r.Version).Scan(&who); err == nil && who == r.Seat {
				t.Fatalf("your_turn at version %d to seat %d, who just moved", r.Version, r.Seat)
			}
		}
	}
}

// TestTimeoutPolicies moves the clock past the deadline: default_move plays
// for the awaited seat as "system"; pause pauses the game.
func TestTimeoutPolicies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := time.Now().UTC().Truncate(time.Second)
	svc, repo, _, pool := newServiceClock(t, &clock)
	c := create(t, svc, 2)
	g, _ := repo.Game(ctx, c.ID)
	if g.DeadlineAt == nil || !g.DeadlineAt.Equal(clock.Add(projections.DefaultTurnDeadline)) ||
		!g.ReminderAt.Equal(clock.Add(projections.DefaultTurnDeadline-projections.DefaultReminderBefore)) {
		t.Fatalf("deadline %v reminder %v, clock %v", g.DeadlineAt, g.ReminderAt, clock)
	}
	if ok, err := svc.Timeout(ctx, c.ID, clock.Add(time.Hour)); ok || err != nil {
		t.Fatalf("timeout before the deadline: %v %v", ok, err)
	}
	due, err := playpg.NewDeadlines(pool).DueDeadlines(ctx, clock.Add(80*time.Hour), 10)
	if err != nil || len(due) != 1 || due[0].ID != c.ID {
		t.Fatalf("due: %v %v", due, err)
	}
	clock = clock.Add(80 * time.Hour)
	if ok, err := svc.Timeout(ctx, c.ID, clock); !ok || err != nil {
		t.Fatalf("timeout: %v %v", ok, err)
	}
	g2, _ := repo.Game(ctx, c.ID)
	if g2.Version <= g.Version+1 || g2.ToMove[0] != 1 || !g2.DeadlineAt.Equal(clock.Add(projections.DefaultTurnDeadline)) {
		t.Fatalf("after timeout: version %d to_move %v deadline %v", g2.Version, g2.ToMove, g2.DeadlineAt)
	}
	h, err := svc.History(ctx, c.ID, tokens.Seat(secret, c.ID, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if h.Events[1].Type != pbemevent.TypeTimeout || h.Events[2].Actor != "system" {
		t.Fatalf("history %+v", h.Events[1:3])
	}
	// The timeout notice is written with the timeout, in its transaction.
	var noticed []int32
	if err := pool.QueryRow(ctx, `SELECT coalesce(array_agg(seat ORDER BY id), '{}') FROM outbox WHERE game_id = $1 AND kind = $2 AND event_version = $3`,
		c.ID, outbox.Timeout, g2.Version).Scan(&noticed); err != nil || len(noticed) != 1 || noticed[0] != 0 {
		t.Fatalf("timeout notices %v (%v), want one for seat 0", noticed, err)
	}
	if ok, _ := svc.Timeout(ctx, c.ID, clock); ok {
		t.Fatal("a second timeout for the same deadline acted")
	}

	// Pause policy.
	req := play1.CreateGame{Organiser: play1.Organiser{Name: "Org", Email: "org@example.org"}, Game: testgame.Name, TimeoutPolicy: projections.PolicyPause, TurnDeadline: time.Hour,
		Players: []play1.NewPlayer{{Name: "Ann", Email: "a@example.org"}, {Name: "Bob", Email: "b@example.org"}}}
	p, err := svc.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(2 * time.Hour)
	if ok, err := svc.Timeout(ctx, p.ID, clock); !ok || err != nil {
		t.Fatalf("timeout: %v %v", ok, err)
	}
	pg, _ := repo.Game(ctx, p.ID)
	if pg.Status != projections.StatusPaused || pg.DeadlineAt != nil || pg.ReminderBefore != 20*time.Minute {
		t.Fatalf("after pause timeout: %s %v %v", pg.Status, pg.DeadlineAt, pg.ReminderBefore)
	}
}
