package postgres_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"pbem/engine"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/projections"
	"pbem/projections/outbox"
	projpg "pbem/projections/postgres"
	"pbem/projections/testgame"
)

// TestReminderSaysOfItsGameWhatTheOtherEmailsSay: a reminder's payload
// names its game as the invitation of the same version does: the player
// list marks the bot's seat, and the deadline is written to the second.
// A regression test: the reminders built their payload apart, without the
// bots and with the deadline's microseconds (issue #42).
func TestReminderSaysOfItsGameWhatTheOtherEmailsSay(t *testing.T) {
	ctx := context.Background()
	pool := newPool(t)
	c := newClock()
	// A clock 0.123456 s past a whole second: the deadline has a fraction.
	c.Add(2*time.Second - time.Duration(c.Now().Nanosecond()) + 123456*time.Microsecond)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	games := engine.NewRegistry(testgame.Game{})
	svc := play.New(play.Config{Games: games, Store: store, Repo: projpg.New(pool), Accounts: playpg.New(pool),
		Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: rigSecret, Now: c.Now})
	g, err := svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Game: testgame.Name, Language: "en", Options: json.RawMessage(`{"target":25}`),
		Players:      []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Hal", Bot: "easy"}},
		TurnDeadline: time.Hour, ReminderBefore: 10 * time.Minute, TimeoutPolicy: projections.PolicySkip})
	if err != nil {
		t.Fatal(err)
	}
	sched, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(pool), Timeouter: svc,
		Now: func() time.Time { return c.Now().Add(51 * time.Minute) }})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := sched.Remind(ctx); err != nil || n != 1 {
		t.Fatalf("Remind = %d, %v; want 1 game", n, err)
	}
	got := map[outbox.Kind]outbox.Payload{}
	rows, err := pool.Query(ctx, `SELECT kind, payload FROM outbox WHERE game_id = $1 AND seat = 0`, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind string
		var data []byte
		if err := rows.Scan(&kind, &data); err != nil {
			t.Fatal(err)
		}
		var p outbox.Payload
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		got[outbox.Kind(kind)] = p
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	inv, ok1 := got[outbox.Invitation]
	rem, ok2 := got[outbox.Reminder]
	if !ok1 || !ok2 {
		t.Fatalf("seat 0's emails: %v; want an invitation and a reminder", got)
	}
	wantGame := outbox.GameInfo{ID: g.ID, Name: testgame.Name, Players: []string{"Ann", "Hal"}, Bots: []string{"", "easy"}}
	if !reflect.DeepEqual(rem.Game, wantGame) || !reflect.DeepEqual(inv.Game, wantGame) {
		t.Errorf("games named: reminder %+v, invitation %+v; want %+v", rem.Game, inv.Game, wantGame)
	}
	want := g.Game.DeadlineAt.UTC().Truncate(time.Second)
	if g.Game.DeadlineAt.Equal(want) {
		t.Fatalf("deadline %v has no fraction of a second: the test proves nothing", g.Game.DeadlineAt)
	}
	if rem.Deadline == nil || !rem.Deadline.Equal(want) || inv.Deadline == nil || !inv.Deadline.Equal(want) {
		t.Errorf("deadlines: reminder %v, invitation %v; want %v (to the second)", rem.Deadline, inv.Deadline, want)
	}
	if rem.Lines == nil {
		t.Errorf("reminder lines are null; want a list")
	}
}
