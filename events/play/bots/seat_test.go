package bots_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	"pbem/events/tokens"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/projections"
	"pbem/projections/outbox"
)

// countBy counts the events of game id by actor.
func countBy(t *testing.T, e *botEnv, id, actor string) int {
	t.Helper()
	evs, err := e.store.ReadStream(context.Background(), id, 1)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if ev.Meta.Actor == actor {
			n++
		}
	}
	return n
}

func TestBotSeatHandedToABotAndBack(t *testing.T) {
	t.Parallel()
	e := newBotEnv(t, nil)
	e.runWorker(t)
	ctx := context.Background()
	c, err := e.svc.Create(ctx, play.CreateGame{Game: lords.Name, Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"}, Players: []play.NewPlayer{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := c.ID
	ann, bob := tokens.Seat(botSecret, id, 0, 0), tokens.Seat(botSecret, id, 1, 0)
	rng := rand.New(rand.NewPCG(5, 6))
	moves := 0
	e.playPeople(t, id, map[int]string{0: ann, 1: bob}, rng, playLimit, func() bool { moves++; return moves > 6 })

	// The organiser hands Bob's seat to a bot: a bad level changes nothing.
	if _, err := e.svc.SeatBot(ctx, id, c.AdminToken, 1, "hard"); play.ErrorCode(err) != events.CodeInvalid || !strings.Contains(err.Error(), "bot") {
		t.Fatalf("bad level: %v", err)
	}
	if _, err := e.svc.SeatBot(ctx, id, "wrong", 1, "normal"); play.ErrorCode(err) != events.CodeUnauthorized {
		t.Fatalf("bad admin token: %v", err)
	}
	sm, err := e.svc.SeatBot(ctx, id, c.AdminToken, 1, "normal")
	if err != nil {
		t.Fatal(err)
	}
	if sm.Seats[1].Bot != "normal" {
		t.Fatalf("seats = %+v", sm.Seats)
	}
	handed := sm.Version
	e.playPeople(t, id, map[int]string{0: ann}, rng, playLimit, func() bool { return countBy(t, e, id, "bot:normal") >= 3 })
	if _, err := e.svc.Move(ctx, id, bob, play.MoveRequest{Version: 1, Move: play.PostedMove([]byte(`{}`))}); play.ErrorCode(err) != events.CodeConflict {
		t.Fatalf("Bob's move while a bot plays his seat: %v", err)
	}

	// And back: Bob gets a new link by email; the old one stops working.
	sm, err = e.svc.SeatBot(ctx, id, c.AdminToken, 1, "")
	if play.ErrorCode(err) == events.CodeConflict && strings.Contains(err.Error(), "ended") {
		t.Skip("the game ended before the seat was handed back")
	}
	if err != nil {
		t.Fatal(err)
	}
	back := sm.Version
	if sm.Seats[1].Bot != "" {
		t.Fatalf("seats = %+v", sm.Seats)
	}
	if _, err := e.svc.SeatBot(ctx, id, c.AdminToken, 1, ""); play.ErrorCode(err) != events.CodeConflict {
		t.Fatalf("handing back twice: %v", err)
	}
	var toBot, links int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE event_version > $2 AND event_version < $3),
		count(*) FILTER (WHERE event_version = $3 AND kind = 'link') FROM outbox WHERE game_id = $1 AND seat = 1`,
		id, handed, back).Scan(&toBot, &links); err != nil {
		t.Fatal(err)
	}
	if toBot != 0 || links != 1 {
		t.Fatalf("Bob's emails: %d while a bot played, %d new links", toBot, links)
	}
	if _, err := e.svc.View(ctx, id, bob); play.ErrorCode(err) != events.CodeUnauthorized {
		t.Fatalf("Bob's old link: %v", err)
	}
	botMoves := countBy(t, e, id, "bot:normal")
	bob = tokens.Seat(botSecret, id, 1, 1)
	end := e.playPeople(t, id, map[int]string{0: ann, 1: bob}, rng, playLimit, nil)
	if end.Status != projections.StatusFinished {
		t.Fatalf("summary %+v", end)
	}
	if n := countBy(t, e, id, "bot:normal"); n != botMoves {
		t.Fatalf("the bot played %d events after the seat was handed back", n-botMoves)
	}
	if err := e.svc.Verify(ctx, id); err != nil {
		t.Fatal(err)
	}
	h, err := e.svc.Audit(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, ev := range h.Events {
		if ev.Type == pbemevent.TypeSeatBot {
			seen++
		}
	}
	if seen != 2 {
		t.Fatalf("the audit shows %d pbem.seat_bot events", seen)
	}
}

func TestBotTimeoutPolicyBotPlaysTheMove(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	e := newBotEnv(t, func() time.Time { return now })
	ctx := context.Background()
	c, err := e.svc.Create(ctx, play.CreateGame{Game: lords.Name, Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"}, TimeoutPolicy: projections.PolicyBot, Players: []play.NewPlayer{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	before, err := e.svc.Summary(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := e.svc.Timeout(ctx, c.ID, now.Add(projections.DefaultTurnDeadline+time.Minute))
	if err != nil || !ok {
		t.Fatalf("timeout = %v, %v", ok, err)
	}
	evs, err := e.store.ReadStream(ctx, c.ID, before.Version+1)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) < 2 || evs[0].Type != pbemevent.TypeTimeout || evs[0].Meta.Actor != "system" {
		t.Fatalf("timeout events: %+v", evs)
	}
	for _, ev := range evs[1:] {
		if ev.Meta.Actor != "bot:normal" {
			t.Fatalf("v%d %s by %q", ev.Version, ev.Type, ev.Meta.Actor)
		}
	}
	if err := e.svc.Verify(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
}

func TestBotSeatGetsNoReminderAndEmailsMarkBots(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	e := newBotEnv(t, func() time.Time { return now })
	ctx := context.Background()
	c, err := e.svc.Create(ctx, play.CreateGame{Game: lords.Name, Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"}, Language: "fr", Players: []play.NewPlayer{
		{Name: "Ann", Email: "ann@example.org"}, {Bot: "easy", Name: "Hal"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Ann plays until the bot (not played: no worker) is awaited.
	tok := tokens.Seat(botSecret, c.ID, 0, 0)
	rng := rand.New(rand.NewPCG(8, 9))
	e.playPeople(t, c.ID, map[int]string{0: tok}, rng, playLimit, func() bool {
		sm, err := e.svc.Summary(ctx, c.ID)
		return err == nil && slices.Contains(sm.ToMove, 1)
	})
	sched, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(e.pool), Timeouter: e.svc,
		Now: func() time.Time { return now.Add(projections.DefaultTurnDeadline) }})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := sched.Remind(ctx); err != nil || n != 1 {
		t.Fatalf("Remind = %d, %v", n, err)
	}
	var toBot int
	var payload []byte
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE seat = 1) FROM outbox WHERE game_id = $1`, c.ID).Scan(&toBot); err != nil {
		t.Fatal(err)
	}
	if toBot != 0 {
		t.Fatalf("%d emails to the bot's seat", toBot)
	}
	if err := e.pool.QueryRow(ctx, `SELECT payload FROM outbox WHERE game_id = $1 AND seat = 0 AND kind = 'invitation'`, c.ID).Scan(&payload); err != nil {
		t.Fatal(err)
	}
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: botSecret, PublicURL: "http://pbem.example"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Render(notify.Row{GameID: c.ID, Seat: 0, Kind: outbox.Invitation, Payload: payload, EventVersion: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Subject, "Ann, Hal (robot)") || !strings.Contains(m.Text, "Ann, Hal (robot)") {
		t.Fatalf("invitation does not mark the bot: %q\n%s", m.Subject, m.Text)
	}
}

// TestDigestMarksBots: the daily digest lists a game's players as every
// other email does, a bot's name marked.
func TestDigestMarksBots(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	e := newBotEnv(t, func() time.Time { return now })
	e.runWorker(t)
	ctx := context.Background()
	c, err := e.svc.Create(ctx, play.CreateGame{Game: lords.Name, Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"}, Language: "fr", Players: []play.NewPlayer{
		{Name: "Ann", Email: "ann@example.org"}, {Bot: "easy", Name: "Hal"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Ann's turn comes (the bot worker plays Hal's first if it is his).
	e.playPeople(t, c.ID, nil, nil, playLimit, func() bool {
		sm, err := e.svc.Summary(ctx, c.ID)
		return err == nil && slices.Contains(sm.ToMove, 0)
	})
	if err := postgres.NewPrefs(e.pool).SetMode(ctx, "ann@example.org", notify.DailyDigest); err != nil {
		t.Fatal(err)
	}
	if n, err := postgres.NewDigester(e.pool, postgres.Histories{Games: e.games, Events: e.store}).Digests(ctx, now, 0); err != nil || n != 1 {
		t.Fatalf("Digests = %d, %v", n, err)
	}
	var payload []byte
	if err := e.pool.QueryRow(ctx, `SELECT payload FROM outbox WHERE kind = 'digest'`).Scan(&payload); err != nil {
		t.Fatal(err)
	}
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: botSecret, PublicURL: "http://pbem.example"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Render(notify.Row{ID: 1, Seat: -1, Kind: outbox.Digest, Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "Ann, Hal (robot)") || !strings.Contains(m.HTML, "Ann, Hal (robot)") {
		t.Fatalf("the digest does not mark the bot:\n%s", m.Text)
	}
}
