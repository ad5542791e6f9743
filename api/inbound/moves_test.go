package inbound_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"pbem/engine/bagpipes"
)

// startBagpipes creates a Swords and Bagpipes game and returns its id and
// the email of the seat to move (its invitation).
func (e *env) startBagpipes() (string, email) {
	e.t.Helper()
	id := e.create(bagpipes.Name, "en")
	for _, em := range e.inbox() {
		if len(em.moves) > 0 {
			return id, em
		}
	}
	e.t.Fatal("no invitation lists a move")
	return "", email{}
}

// TestSeveralMovesInOneReply: a Swords and Bagpipes turn (an action, a
// march, the end of the turn) played with one reply of three lines, each
// read against the list the move before it left; and replies whose lines
// stop partway say what was played, where reading stopped and why.
func TestSeveralMovesInOneReply(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, body string
		played     []string // the labels played, in order
		stopped    string   // the line reading stopped at, "" for none
		why        string   // what the answer says of it
		turnEnds   bool     // the seat is no longer awaited afterwards
	}{
		{"a whole turn", "1\n3\nend your turn\n", []string{"Collect taxes (+1 gold)",
			"Move 1 unit from your castle to your camp", "End your turn"}, "", "", true},
		{"a line that is no move then", "1\nmuster the clans\n3\n", []string{"Collect taxes (+1 gold)"},
			"muster the clans", "not one of your moves after the move before it", false},
		{"a line after the turn ended", "1\n3\nend your turn\n2\n", []string{"Collect taxes (+1 gold)",
			"Move 1 unit from your castle to your camp", "End your turn"}, "2", "No move was awaited from you any more", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			id, em := e.startBagpipes()
			if moveLabel(em, 1) != c.played[0] {
				t.Fatalf("the invitation's first move is %q", moveLabel(em, 1))
			}
			v := e.version(id)
			e.reply(em, "three@client.example.org", c.body)
			if got := e.version(id); got != v+int64(len(c.played)) {
				t.Fatalf("version %d after the reply, want %d (%d moves)", got, v+int64(len(c.played)), len(c.played))
			}
			sm, err := e.svc.Summary(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if awaited := slices.Contains(sm.ToMove, em.seat); awaited == c.turnEnds {
				t.Errorf("seat %d awaited: %v after the reply (to move %v)", em.seat, awaited, sm.ToMove)
			}
			ans := e.answerTo(em)
			at := 0
			for _, l := range c.played {
				i := strings.Index(ans.text[at:], "Your move was played: "+l+".")
				if i < 0 {
					t.Fatalf("the answer does not say %q was played after what it said before:\n%s", l, ans.text)
				}
				at += i
			}
			if strings.Count(ans.text, "Your move was played") != len(c.played) {
				t.Errorf("the answer says %d moves were played, want %d:\n%s", strings.Count(ans.text, "Your move was played"), len(c.played), ans.text)
			}
			if c.stopped == "" {
				if strings.Contains(ans.text, "Reading stopped") {
					t.Errorf("the answer says reading stopped:\n%s", ans.text)
				}
				return
			}
			if !strings.Contains(ans.text, "Reading stopped at “"+c.stopped+"”") || !strings.Contains(ans.text, c.why) {
				t.Errorf("the answer does not say reading stopped at %q (%s):\n%s", c.stopped, c.why, ans.text)
			}
			if !c.turnEnds && len(ans.moves) == 0 {
				t.Errorf("the answer does not list the moves now:\n%s", ans.text)
			}
		})
	}
}

// TestMovesInWordsByReply: a Swords and Bagpipes turn replied in words as
// players write them, in English, French and Italian (a word of the
// label, "my" or "mon" for "your" or "votre", "il turno" for "il tuo
// turno"), is played whole; a line whose words fit several moves plays
// nothing, and the answer names those moves with their numbers.
func TestMovesInWordsByReply(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, body string
		moves      int      // the moves played
		says       []string // in the answer
	}{
		{"en", "taxes\nmove 1 unit\nend my turn\n", 3, []string{"Your move was played: End your turn."}},
		{"fr", "impôts\ndélocaliser 1 unité\nterminer mon tour\n", 3, []string{"Votre coup a été joué\u00a0: Terminer votre tour."}},
		{"it", "tasse\nsposta 1 unità\ntermina il turno\n", 3, []string{"La tua mossa è stata giocata: Termina il tuo turno."}},
		{"en", "castle\n", 0, []string{"“castle” could be more than one of your moves (", "3. Assemble troops (+2 units in your castle)",
			"so that line was not played: write the number of the move you mean."}},
	}
	for _, c := range cases {
		t.Run(c.lang+" "+c.body, func(t *testing.T) {
			e := newEnv(t)
			id := e.create(bagpipes.Name, c.lang)
			var em email
			for _, m := range e.inbox() {
				if len(m.moves) > 0 {
					em = m
				}
			}
			v := e.version(id)
			e.reply(em, "words@client.example.org", c.body)
			if got := e.version(id); got != v+int64(c.moves) {
				t.Errorf("version %d after the reply, want %d (%d moves)", got, v+int64(c.moves), c.moves)
			}
			ans := e.answerTo(em)
			for _, want := range c.says {
				if !strings.Contains(ans.text, want) {
					t.Errorf("the answer does not say %q:\n%s", want, ans.text)
				}
			}
		})
	}
}
