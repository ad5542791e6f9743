package inbound_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// monthsIn are the months as a reply writes them, by language.
var monthsIn = map[string][]string{
	"en": strings.Fields("January February March April May June July August September October November December"),
	"fr": strings.Fields("janvier février mars avril mai juin juillet août septembre octobre novembre décembre"),
	"it": strings.Fields("gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre"),
}

// TestAwayAndBackByReply: over SMTP on loopback, in en/fr/it, a reply's
// away line in the reader's words ("away: 12 December", "absent : 12
// décembre", "assente: 12 dicembre") records the away in the game
// (pbem.away) and the answer says until when; the person gets the email
// that says what happens in each game; a back line ("I'm back", "de
// retour", "tornato") ends it; a day past and a line that names no day
// get a clear answer and change nothing; none is read as a move, and a
// greeting before the away line is skipped (the reply is not quoted back
// as unreadable).
func TestAwayAndBackByReply(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, word, back, awaySubject, said, backSaid, past, unread string
	}{
		{"en", "away: ", "I'm back", "Away until", "You are away until %s in all your games", "Welcome back: the deadlines of your games run again",
			"is today or past, so your away was not recorded", "names no day, so your away was not recorded"},
		{"fr", "Absent : ", "de retour", "Absence jusqu'au", "Votre absence jusqu'au %s est notée dans toutes vos parties", "Bon retour\u00a0: les délais de vos parties courent de nouveau",
			"est aujourd'hui ou passé\u00a0: votre absence n'est pas notée", "ne désigne aucun jour\u00a0: votre absence n'est pas notée"},
		{"it", "assente: ", "tornato", "Assenza fino al", "La tua assenza fino al %s è registrata in tutte le tue partite", "Eccoti di nuovo qui: le scadenze delle tue partite corrono di nuovo",
			"è oggi o già passato: la tua assenza non è registrata", "non indica un giorno: la tua assenza non è registrata"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			id, inv := e.start(c.lang)
			v := e.version(id)
			words := func(d time.Time) string { return fmt.Sprintf("%d %s", d.Day(), monthsIn[c.lang][d.Month()-1]) }
			now := time.Now().UTC()

			for _, bad := range []struct{ line, want string }{
				{c.word + words(now.AddDate(0, 0, -1)), c.past},
				{c.word + "soon", c.unread},
			} {
				e.reply(inv, "bad-"+bad.line+"@client.example.org", bad.line+"\n")
				if ans := e.answerTo(inv); !strings.Contains(ans.text, bad.want) {
					t.Fatalf("the answer to %q does not say %q:\n%s", bad.line, bad.want, ans.text)
				}
				if e.version(id) != v {
					t.Fatalf("%q changed the game", bad.line)
				}
			}

			day := now.AddDate(0, 0, 10)
			e.reply(inv, "away-"+c.lang+"@client.example.org", "Bonjour,\n"+c.word+words(day)+"\n")
			var ans, note *email
			for _, m := range e.inbox() {
				switch {
				case m.to == inv.to && strings.HasPrefix(m.subject, "Re:"):
					ans = &m
				case m.to == inv.to && strings.HasPrefix(m.subject, c.awaySubject):
					note = &m
				}
			}
			if ans == nil || !strings.Contains(ans.text, fmt.Sprintf(c.said, day.Format(time.DateOnly))) || strings.Contains(ans.text, "> "+c.word) {
				t.Fatalf("the answer to the away line: %+v", ans)
			}
			if note == nil || !strings.Contains(note.text, "/play/"+id) {
				t.Fatalf("no email says what happens in the game: %+v", note)
			}
			t.Logf("the answer:\n%s\n%s\nthe away email:\n%s\n%s", ans.subject, ans.text, note.subject, note.text)
			if e.version(id) != v+1 {
				t.Fatalf("the away line: version %d, want %d (one pbem.away)", e.version(id), v+1)
			}
			h, err := e.svc.Summary(t.Context(), id)
			if err != nil || h.Version != v+1 {
				t.Fatalf("summary: %+v, %v", h, err)
			}

			e.reply(inv, "back-"+c.lang+"@client.example.org", c.back+"\n")
			var back *email
			for _, m := range e.inbox() {
				if m.to == inv.to && strings.HasPrefix(m.subject, "Re:") {
					back = &m
				}
			}
			if back == nil || !strings.Contains(back.text, c.backSaid) {
				t.Fatalf("the answer to %q: %+v", c.back, back)
			}
			if e.version(id) != v+2 {
				t.Fatalf("the back line: version %d, want %d (one pbem.back)", e.version(id), v+2)
			}
		})
	}
}
