package inbound_test

import (
	"strings"
	"testing"

	"pbem/engine/bagpipes"
)

// TestGreetingThenMovesOverSMTP is issue #43's reply of a group of
// friends, over real SMTP in each language: a greeting line, two move
// lines of a Swords and Bagpipes turn and a chat line. The moves are
// played, the chat goes to the table, and the answer names the greeting
// it skipped and never says that nothing was sent. The same reply whose
// move line is no move posts the chat, and its answer says no move was
// played, not that nothing was sent.
func TestGreetingThenMovesOverSMTP(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, greeting  string
		played, skipped string // what the answer says of a move and of the greeting
		nothingSent     string // the words of an answer that says nothing was sent
		noMove          string // the words of an answer that says no move was played
	}{
		{"en", "Hi Ann,", "Your move was played", "“Hi Ann,” was read as a greeting", "nothing was played or sent", "no move was played"},
		{"fr", "Bonsoir !", "Votre coup a été joué", "«\u00a0Bonsoir !\u00a0» a été lu comme une salutation", "rien n'a été joué ni envoyé", "aucun coup n'a été joué"},
		{"it", "Ciao a tutti", "La tua mossa è stata giocata", "«Ciao a tutti» è stato letto come un saluto", "niente è stato giocato o inviato", "nessuna mossa è stata giocata"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			e := newEnv(t)
			id := e.create(bagpipes.Name, c.lang)
			var em email
			for _, m := range e.inbox() {
				if len(m.moves) > 0 {
					em = m
				}
			}
			if em.replyTo == "" {
				t.Fatal("no invitation lists a move")
			}
			v := e.version(id)
			e.reply(em, "greeting-"+c.lang+"@client.example.org", c.greeting+"\n1\n3\nchat: "+c.greeting+" bonne chance\n")
			if got := e.version(id); got != v+3 { // the chat line and two moves
				t.Fatalf("version %d after the reply, want %d", got, v+3)
			}
			ans := e.answerTo(em)
			if strings.Count(ans.text, c.played) != 2 || !strings.Contains(ans.text, c.skipped) || strings.Contains(ans.text, c.nothingSent) {
				t.Fatalf("the answer to a greeting, two moves and a chat line:\n%s", ans.text)
			}

			// The seat's turn goes on: the answer lists its moves now; it is
			// answered with a greeting, a line that is no move, and a chat line.
			next := ans
			if len(next.moves) == 0 || next.replyTo == "" {
				t.Fatalf("the answer lists no moves to answer:\n%s", ans.text)
			}
			v = e.version(id)
			e.reply(next, "nomove-"+c.lang+"@client.example.org", c.greeting+"\nthe blue one\nchat: hm\n")
			if got := e.version(id); got != v+1 { // the chat line only
				t.Fatalf("version %d after the reply, want %d", got, v+1)
			}
			ans = e.answerTo(next)
			if !strings.Contains(ans.text, c.noMove) || strings.Contains(ans.text, c.nothingSent) || !strings.Contains(ans.text, "> the blue one") {
				t.Fatalf("the answer to a greeting, a line that is no move and a chat line:\n%s", ans.text)
			}
		})
	}
}
