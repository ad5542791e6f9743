package postgres_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	"pbem/events/tokens"
	"pbem/notify/smtpsink"
	"pbem/projections/testgame"
)

// awayRig is an asyncRig whose scheduler also ends the aways that reach
// their end (as serve's does).
func awayRig(t *testing.T) *asyncRig {
	t.Helper()
	r := newRig(t)
	sched, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(r.pool), Timeouter: r.svc, Away: r.svc, Now: r.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	r.sched = sched
	return r
}

// createAway creates a French game of Ann and Bob whose away policy is
// policy, and mails its invitations.
func (r *asyncRig) createAway(policy string) *play.CreatedGame {
	r.t.Helper()
	g, err := r.svc.Create(context.Background(), play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Game: testgame.Name, Language: "fr", Options: json.RawMessage(`{"target":25}`),
		Players:      []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		TurnDeadline: time.Hour, ReminderBefore: 10 * time.Minute, AwayPolicy: policy,
	})
	if err != nil {
		r.t.Fatal(err)
	}
	r.mail(0)
	return g
}

// awaited is the address of the seat game id awaits first.
func (r *asyncRig) awaited(id string) (int, string) {
	r.t.Helper()
	g := r.game(id)
	seat := g.ToMove[0]
	return seat, g.SeatAt(seat).Email
}

// eventTypes lists the types of game id's events from version from on.
func (r *asyncRig) eventTypes(id string, from int64) []string {
	r.t.Helper()
	rows, err := r.pool.Query(context.Background(), `SELECT type FROM events WHERE stream = $1 AND version >= $2 ORDER BY version`, id, from)
	if err != nil {
		r.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			r.t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// verified checks that game id replays to its projection, before and
// after a rebuild.
func (r *asyncRig) verified(id string) {
	r.t.Helper()
	ctx := context.Background()
	if err := r.svc.Verify(ctx, id); err != nil {
		r.t.Fatalf("verify: %v", err)
	}
	if err := r.svc.Rebuild(ctx, id); err != nil {
		r.t.Fatalf("rebuild: %v", err)
	}
	if err := r.svc.Verify(ctx, id); err != nil {
		r.t.Fatalf("verify after rebuild: %v", err)
	}
}

// onlyTo returns the one email of ms to address, failing otherwise.
func onlyTo(t *testing.T, ms []smtpsink.Parsed, address string) smtpsink.Parsed {
	t.Helper()
	var out []smtpsink.Parsed
	for _, m := range ms {
		if rcpt(t, m) == address {
			out = append(out, m)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d emails to %s, want 1: %+v", len(out), address, ms)
	}
	return out[0]
}

// TestAwayDeadlinesWaitAndResumeWithTheTimeLeft: under the policy
// "wait", an awaited seat's deadline moves to the end of the away plus
// the time it had left; nothing times out or is reminded meanwhile; back
// early, the deadline is the time left from then; the table reads both
// in its history, the person gets an email of each, in their language.
func TestAwayDeadlinesWaitAndResumeWithTheTimeLeft(t *testing.T) {
	t.Parallel()
	r := awayRig(t)
	ctx := context.Background()
	// Nine in the morning, whatever the time the test runs: the away then
	// waits 2 days and 15 hours, at most 3 days as the table says.
	now := r.clock.Now()
	r.clock.Add(time.Date(now.Year(), now.Month(), now.Day()+1, 9, 0, 0, 0, time.UTC).Sub(now))
	c := r.createAway("")
	seat, person := r.awaited(c.ID)
	before := r.game(c.ID)
	start := r.clock.Now()
	left := before.DeadlineAt.Sub(start)
	day := start.AddDate(0, 0, 3).Format(time.DateOnly)
	sent := len(r.sink.Messages())

	st, err := r.svc.Away(ctx, person, day, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	until, _ := time.Parse(time.DateOnly, day)
	if st.Until == nil || !st.Until.Equal(until) || len(st.Games) != 1 || st.Games[0].Effect != pbemevent.AwayWait {
		t.Fatalf("away status: %+v", st)
	}
	g := r.game(c.ID)
	if want := until.Add(left); g.DeadlineAt == nil || !g.DeadlineAt.Equal(want) {
		t.Fatalf("deadline while away: %v, want %v (the end of the away plus the %v left)", g.DeadlineAt, want, left)
	}
	if types := r.eventTypes(c.ID, before.Version+1); len(types) != 1 || types[0] != pbemevent.TypeAway {
		t.Fatalf("events of the away: %v", types)
	}
	m := onlyTo(t, r.mail(sent), person)
	if !strings.HasPrefix(m.Subject, "Absence jusqu'au") || !strings.Contains(m.Text, "les délais vous attendent") ||
		!strings.Contains(m.Text, "de retour") {
		t.Fatalf("the away email: %q\n%s", m.Subject, m.Text)
	}
	other := 1 - seat
	h, err := r.svc.History(ctx, c.ID, tokens.Seat(rigSecret, c.ID, other, 0))
	if err != nil {
		t.Fatal(err)
	}
	if last := h.Events[len(h.Events)-1].Summary; !strings.Contains(last, "s'absente jusqu'au") || !strings.Contains(last, "3 jours au plus") {
		t.Fatalf("the table reads %q", last)
	}

	r.clock.Add(2 * time.Hour) // past the deadline it had
	if res := r.tick(); res.TimedOut != 0 || res.Reminded != 0 || res.Back != 0 {
		t.Fatalf("a tick while away: %+v", res)
	}
	sent = len(r.sink.Messages())
	if _, err := r.svc.Back(ctx, person, time.UTC); err != nil {
		t.Fatal(err)
	}
	g = r.game(c.ID)
	if want := r.clock.Now().Add(left); g.DeadlineAt == nil || !g.DeadlineAt.Equal(want) {
		t.Fatalf("deadline back: %v, want %v (now plus the %v left)", g.DeadlineAt, want, left)
	}
	if g.SeatAt(seat).Away != nil || len(g.SeatAt(seat).AwayPast) != 1 {
		t.Fatalf("seat after back: %+v", g.SeatAt(seat))
	}
	m = onlyTo(t, r.mail(sent), person)
	if !strings.HasPrefix(m.Subject, "Bon retour") || !strings.Contains(m.Text, "avec le temps qu'il vous restait") {
		t.Fatalf("the back email: %q\n%s", m.Subject, m.Text)
	}
	if _, err := r.svc.Back(ctx, person, time.UTC); events.ErrorCode(err) != events.CodeConflict {
		t.Fatalf("back twice: %v", err)
	}
	r.verified(c.ID)
	r.clock.Add(left + time.Minute)
	if res := r.tick(); res.TimedOut != 1 {
		t.Fatalf("the deadline after the back did not run: %+v", res)
	}
}

// TestAwayBotPlaysUntilBack: under the policy "bot", a bot takes the seat
// (pbem.seat_bot after pbem.away) and hands it back when its person is
// back, with a fresh link emailed.
func TestAwayBotPlaysUntilBack(t *testing.T) {
	t.Parallel()
	r := awayRig(t)
	ctx := context.Background()
	c := r.createAway(pbemevent.AwayBot)
	seat, person := r.awaited(c.ID)
	v := r.game(c.ID).Version
	day := r.clock.Now().AddDate(0, 0, 5).Format(time.DateOnly)
	if _, err := r.svc.Away(ctx, person, day, time.UTC); err != nil {
		t.Fatal(err)
	}
	g := r.game(c.ID)
	if types := r.eventTypes(c.ID, v+1); len(types) != 2 || types[0] != pbemevent.TypeAway || types[1] != pbemevent.TypeSeatBot {
		t.Fatalf("events of the away: %v", types)
	}
	if g.SeatAt(seat).Bot != "normal" || !g.SeatAt(seat).Away.Handed {
		t.Fatalf("seat while away: %+v", g.SeatAt(seat))
	}
	sent := len(r.sink.Messages())
	r.clock.Add(time.Hour)
	if _, err := r.svc.Back(ctx, person, time.UTC); err != nil {
		t.Fatal(err)
	}
	g = r.game(c.ID)
	if st := g.SeatAt(seat); st.Bot != "" || st.Away != nil || st.TokenGen != 1 {
		t.Fatalf("seat back: %+v", st)
	}
	var link, back bool
	for _, m := range r.mail(sent) {
		if rcpt(t, m) != person {
			continue
		}
		link = link || strings.Contains(m.Subject, "nouveau lien")
		back = back || (strings.HasPrefix(m.Subject, "Bon retour") && strings.Contains(m.Text, "vous jouez de nouveau votre place"))
	}
	if !link || !back {
		t.Fatalf("back from a bot's away: link email %v, back email %v", link, back)
	}
	r.verified(c.ID)
}

// TestAwayEndsAtItsDate: the scheduler ends an away that reached its day
// (pbem.back by the system), and the time left runs from then.
func TestAwayEndsAtItsDate(t *testing.T) {
	t.Parallel()
	r := awayRig(t)
	ctx := context.Background()
	c := r.createAway(pbemevent.AwayWait)
	seat, person := r.awaited(c.ID)
	left := r.game(c.ID).DeadlineAt.Sub(r.clock.Now())
	day := r.clock.Now().AddDate(0, 0, 2).Format(time.DateOnly)
	if _, err := r.svc.Away(ctx, person, day, time.UTC); err != nil {
		t.Fatal(err)
	}
	until, _ := time.Parse(time.DateOnly, day)
	r.clock.Add(until.Sub(r.clock.Now()) + time.Minute)
	if res := r.tick(); res.Back != 1 || res.TimedOut != 0 {
		t.Fatalf("tick at the away's end: %+v", res)
	}
	g := r.game(c.ID)
	if g.SeatAt(seat).Away != nil || !g.DeadlineAt.Equal(until.Add(left)) {
		t.Fatalf("after the away's end: seat %+v, deadline %v, want %v", g.SeatAt(seat), g.DeadlineAt, until.Add(left))
	}
	var actor string
	if err := r.pool.QueryRow(ctx, `SELECT actor FROM events WHERE stream = $1 AND type = $2`, c.ID, pbemevent.TypeBack).Scan(&actor); err != nil || actor != "system" {
		t.Fatalf("pbem.back by %q, %v", actor, err)
	}
	if res := r.tick(); res.Back != 0 {
		t.Fatalf("ended twice: %+v", res)
	}
	r.verified(c.ID)
}

// TestAwayRefusesWhatItCannotDo: a day not after today, a day beyond the
// allowance, a person whose games all forbid away: a clear error, and
// nothing recorded.
func TestAwayRefusesWhatItCannotDo(t *testing.T) {
	t.Parallel()
	r := awayRig(t)
	ctx := context.Background()
	c := r.createAway(pbemevent.AwayForbidden)
	_, person := r.awaited(c.ID)
	v := r.game(c.ID).Version
	now := r.clock.Now()
	for _, tc := range []struct{ day, want string }{
		{now.Format(time.DateOnly), "not after today"},
		{now.AddDate(0, 0, -3).Format(time.DateOnly), "not after today"},
		{"12 December", "give a day as 2026-12-12"},
		{now.AddDate(0, 0, 45).Format(time.DateOnly), "the latest day you can give is " + now.Add(30*24*time.Hour).Format(time.DateOnly)},
		{now.AddDate(0, 0, 3).Format(time.DateOnly), "forbid away"},
	} {
		_, err := r.svc.Away(ctx, person, tc.day, time.UTC)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("away until %s: %v, want an error saying %q", tc.day, err, tc.want)
		}
	}
	if g := r.game(c.ID); g.Version != v || g.AwayPolicy != pbemevent.AwayForbidden {
		t.Fatalf("a refused away changed the game: version %d (was %d), policy %q", g.Version, v, g.AwayPolicy)
	}
	st, err := r.svc.AwayOf(ctx, person, time.UTC)
	if err != nil || st.Until != nil || st.DaysLeft != 30 {
		t.Fatalf("status: %+v, %v", st, err)
	}
}

// TestAwayAllowanceCountsOnce: an away spanning two games counts once,
// and what was used is no longer left.
func TestAwayAllowanceCountsOnce(t *testing.T) {
	t.Parallel()
	r := awayRig(t)
	ctx := context.Background()
	a := r.createAway(pbemevent.AwayWait)
	b := r.createAway(pbemevent.AwayBot)
	day := r.clock.Now().AddDate(0, 0, 10).Format(time.DateOnly)
	st, err := r.svc.Away(ctx, "ann@example.org", day, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Games) != 2 {
		t.Fatalf("away in %d games, want 2: %+v", len(st.Games), st)
	}
	r.clock.Add(4 * 24 * time.Hour)
	if _, err := r.svc.Back(ctx, "ann@example.org", time.UTC); err != nil {
		t.Fatal(err)
	}
	st, err = r.svc.AwayOf(ctx, "ann@example.org", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if st.Until != nil || st.DaysUsed < 3.9 || st.DaysUsed > 4.1 || st.DaysLeft != 26 {
		t.Fatalf("after four days away in two games: %+v", st)
	}
	for _, id := range []string{a.ID, b.ID} {
		r.verified(id)
		if g := r.game(id); g.SeatAt(0).Away != nil || g.IsBot(0) {
			t.Fatalf("game %s after back: %+v", id, g.SeatAt(0))
		}
	}
}
