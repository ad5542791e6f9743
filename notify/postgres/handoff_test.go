package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/notify"
	"pbem/projections/outbox"
)

// TestHandOffsWithinTheGraceGoAsOneEmail: an organiser hands three seats
// to bots in a row (a user trial got nine emails within three seconds,
// three to each player). The hand-off notices wait the mail grace, and
// each person then gets one email that tells every hand-off. The relay
// refuses that email the first time (the worker stops there, as across a
// crash): the older notices are recorded as told by the newest, which
// still tells all three when it goes; nothing goes twice.
func TestHandOffsWithinTheGraceGoAsOneEmail(t *testing.T) {
	t.Parallel()
	e := newStoryEnv(t)
	const grace = 2 * time.Minute
	e.svc = play.New(play.Config{Games: e.games, Store: e.store, Repo: e.repo, Accounts: playpg.New(e.pool), Visits: playpg.New(e.pool),
		Secret: []byte("secret"), Seeds: playtest.Seeds(t.Name()), MailGrace: grace})
	var ahead time.Duration // how far the worker's clock runs ahead of the real one
	e.useWorkerAhead(t, &ahead)
	ctx := context.Background()
	c := e.create(lords.Name, "en", 4)
	e.deliver() // the invitations
	for seat := 1; seat <= 3; seat++ {
		if _, err := e.svc.SeatBot(ctx, c.ID, c.AdminToken, seat, "easy"); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.deliver(); len(got) != 0 {
		t.Fatalf("%d emails went within the grace of the hand-offs", len(got))
	}
	ahead = grace
	e.sink.RefuseNext(1000)
	if got := e.deliver(); len(got) != 0 {
		t.Fatalf("the relay refused every email, yet %d went out", len(got))
	}
	e.sink.RefuseNext(0)
	ahead = grace + time.Hour // the refused emails' retry is due
	got := e.deliver()
	bySeat := map[int]int{}
	for _, m := range got {
		if m.Kind != outbox.Notice {
			continue
		}
		bySeat[m.Seat]++
		for _, who := range []string{"P1", "P2", "P3"} {
			if !strings.Contains(m.Mail.Text, who+" is now played by a bot") {
				t.Errorf("seat %d's notice does not tell that %s went to a bot:\n%s", m.Seat, who, m.Mail.Text)
			}
		}
	}
	for seat := range 4 {
		if bySeat[seat] != 1 {
			t.Errorf("seat %d got %d hand-off notices, want 1 (every one sent: %d)", seat, bySeat[seat], len(got))
		}
	}
	if again := e.deliver(); len(again) != 0 {
		t.Errorf("%d more emails went", len(again))
	}
	for id, st := range e.rowsOf(c.ID, outbox.Notice, 0) {
		if st != "sent" && st != "skipped: "+notify.StaleHandoff {
			t.Errorf("notice %d is %s", id, st)
		}
	}
}
