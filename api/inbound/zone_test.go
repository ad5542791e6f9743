package inbound_test

import (
	"context"
	"strings"
	"testing"

	"pbem/events/play"
	playpg "pbem/events/play/postgres"
)

// TestZoneLineSetsTheSeatsZone: over SMTP on loopback, in en/fr/it, an
// invitation whose seat has no zone tells its deadline in UTC and says
// how to give one; a reply's zone line in the reader's word ("zone:",
// "fuseau :", "fuso:") sets the seat's zone, read as the play page reads
// it, and the answer says so; the next email tells the deadline in that
// zone and no longer asks. A zone line may come with a move. A bad zone
// gets a clear answer and changes nothing.
func TestZoneLineSetsTheSeatsZone(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, ask, bad, line, zone, set, refused string
	}{
		{"en", "reply with a line such as “zone: Paris”", "zone: Mars", "zone: Paris", "Europe/Paris",
			"From now on your times are given in the Europe/Paris time zone.", "“Mars” is not a time zone"},
		// The good line as copied from the email, with its no-break space.
		{"fr", "répondez par une ligne comme «\u00a0fuseau\u00a0: Paris\u00a0»", "fuseau : Atlantide", "Fuseau\u00a0: new york", "America/New_York",
			"Désormais, vos heures sont données dans le fuseau America/New_York.", "«\u00a0Atlantide\u00a0» n'est ni un fuseau"},
		{"it", "rispondi con una riga come «fuso: Roma»", "fuso: Marte", "fuso: Roma", "Europe/Rome",
			"D'ora in poi i tuoi orari sono nel fuso Europe/Rome.", "«Marte» non è un fuso orario"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			e := newEnv(t)
			id, inv := e.start(c.lang)
			if !strings.Contains(inv.text, " UTC") || !strings.Contains(inv.text, c.ask) || !strings.Contains(inv.html, c.ask) {
				t.Fatalf("the invitation does not tell UTC and ask for a zone (%q):\n%s\n%s", c.ask, inv.text, inv.html)
			}
			v := e.version(id)

			e.reply(inv, "bad-"+c.lang+"@client.example.org", c.bad+"\n")
			ans := e.answerTo(inv)
			if !strings.Contains(ans.text, c.refused) {
				t.Fatalf("the answer to %q does not refuse it:\n%s", c.bad, ans.text)
			}
			if e.version(id) != v {
				t.Fatalf("a bad zone line changed the game")
			}

			e.reply(inv, "zone-"+c.lang+"@client.example.org", c.line+"\n")
			ans = e.answerTo(inv)
			if !strings.Contains(ans.text, c.set) {
				t.Fatalf("the answer to %q does not say the zone:\n%s", c.line, ans.text)
			}
			// The next email, a reminder, tells the deadline in the zone.
			ctx := context.Background()
			// (its time comes now, not in a day or two)
			if _, err := e.pool.Exec(ctx, `UPDATE games SET reminder_at = now() WHERE id = $1`, id); err != nil {
				t.Fatal(err)
			}
			sched, err := play.NewScheduler(play.SchedulerConfig{Store: playpg.NewDeadlines(e.pool), Timeouter: e.svc})
			if err != nil {
				t.Fatal(err)
			}
			if n, err := sched.Remind(ctx); err != nil || n != 1 {
				t.Fatalf("%d games reminded, %v", n, err)
			}
			var rem *email
			for _, m := range e.inbox() {
				if m.to == inv.to {
					rem = &m
				}
			}
			if rem == nil || !strings.Contains(rem.text, "("+c.zone+")") || strings.Contains(rem.text, " UTC") || strings.Contains(rem.text, c.ask) || strings.Contains(rem.html, "UTC") {
				t.Fatalf("the reminder after %q does not tell the deadline in %s only, or still asks: %+v", c.line, c.zone, rem)
			}
			if e.version(id) != v {
				t.Fatalf("a zone line changed the game")
			}
		})
	}
}

// TestZoneLineWithAMove: a reply may carry the zone line with its move;
// both are done, and the move's answer tells times in the zone.
func TestZoneLineWithAMove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id, inv := e.start("en")
	v := e.version(id)
	e.reply(inv, "both@client.example.org", "zone: Tokyo\n2\n")
	ans := e.answerTo(inv)
	if e.version(id) != v+1 || !strings.Contains(ans.text, "Your move was played: "+moveLabel(inv, 2)+".") ||
		!strings.Contains(ans.text, "Asia/Tokyo time zone") {
		t.Fatalf("version %d (from %d); the answer:\n%s", e.version(id), v, ans.text)
	}
	for _, em := range e.inbox() {
		if em.to == inv.to && strings.Contains(em.text, "zone: Paris") {
			t.Errorf("an email to the seat still asks for a zone:\n%s", em.text)
		}
	}
}
