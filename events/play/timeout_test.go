package play_test

import (
	"context"
	"testing"
	"time"

	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
	"pbem/projections/testgame"
)

// TestTimeoutPolicies moves the clock past the deadline: default_move plays
// for the awaited seat as "system"; pause pauses the game.
func TestTimeoutPolicies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := time.Now().UTC().Truncate(time.Second)
	svc, repo, _, pool := playtest.NewService(t, func() time.Time { return clock })
	c := playtest.Create(t, svc, 2)
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
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: testgame.Name, TimeoutPolicy: projections.PolicyPause, TurnDeadline: time.Hour,
		Players: []play.NewPlayer{{Name: "Ann", Email: "a@example.org"}, {Name: "Bob", Email: "b@example.org"}}}
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
