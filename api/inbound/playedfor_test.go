package inbound_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

// TestAnswerTellsAForcedStepAfterTheMove: a reply plays Cat's last card;
// the next turns of all three players are then forced draws (their hands
// are empty), played by the game in the same append, Cat's among them.
// The answer says her move was played and then that the game played her
// only move for her, as her history tells it, so that she is not left to
// wonder why no move is asked of her. Her second line, "draw", asks for
// the step the game played for her: it counts as done, and the answer
// does not say that reading stopped there.
func TestAnswerTellsAForcedStepAfterTheMove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	g, err := e.svc.Create(ctx, play.CreateGame{Game: testgame.Name, Language: "en", Options: []byte(`{"target":1000,"forced":true}`),
		Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"},
			{Name: "Cat", Email: "cat@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := g.ID
	// Each plays a card, three rounds, but for Cat's last card.
	for i := range 8 {
		seat := i % 3
		v := e.view(id, seat)
		i := slices.IndexFunc(v.LegalMoves, func(m engine.Move) bool { return strings.HasPrefix(m.Label(), "Play") })
		if i < 0 {
			t.Fatalf("seat %d has no card to play: %v", seat, v.LegalMoves)
		}
		if _, err := e.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: v.Version, Move: v.LegalMoves[i]}); err != nil {
			t.Fatal(err)
		}
	}
	var em email
	for _, m := range e.inbox() {
		if m.seat == 2 && len(m.moves) > 0 {
			em = m
		}
	}
	n := slices.IndexFunc(em.moves, func(l string) bool { return strings.Contains(l, ". Play ") })
	if n < 0 {
		t.Fatalf("Cat's email offers no card to play: %q", em.moves)
	}
	e.reply(em, "last-card@client.example.org", strings.TrimSpace(em.moves[n][:strings.Index(em.moves[n], ".")])+"\ndraw")
	ans := e.answerTo(em)

	h, err := e.svc.History(ctx, id, tokens.Seat(secret, id, 2, 0))
	if err != nil {
		t.Fatal(err)
	}
	var drew string
	for _, r := range h.Events {
		if s, ok := pbemevent.SeatOfForced(r.Actor); ok && s == 2 && !r.Step {
			drew = r.Summary
		}
	}
	if drew == "" {
		t.Fatal("no step was forced on Cat after her last card")
	}
	for _, want := range []string{"Your move was played: " + moveLabel(em, n+1), "Then the game played your only move for you: " + drew,
		"“draw”: the game had done that for you already"} {
		if !strings.Contains(ans.text, want) {
			t.Errorf("the answer does not say %q:\n%s", want, ans.text)
		}
	}
	for _, not := range []string{"Reading stopped", "No move was awaited"} {
		if strings.Contains(ans.text, not) {
			t.Errorf("the answer says %q:\n%s", not, ans.text)
		}
	}
}

// TestAnswerTellsThatTimeRanOutBeforeTheReply: a player's time runs out
// (the game plays a default move for them) before their reply to the
// email of that turn comes: the reply plays nothing, and the answer says,
// in the player's language, that their time ran out and what the game
// did, not only that it is someone else's turn or that the game moved on.
func TestAnswerTellsThatTimeRanOutBeforeTheReply(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	id, em := e.start("it")
	if _, err := e.svc.Timeout(ctx, id, time.Now().Add(30*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	e.inbox()
	v := e.version(id)
	e.reply(em, "late@client.example.org", "1")
	if e.version(id) != v {
		t.Fatal("a reply after the seat's time ran out was played")
	}
	ans := e.answerTo(em)
	want := "Il tuo tempo per giocare era scaduto prima dell'arrivo di questa risposta, e la partita ha giocato una mossa predefinita al posto tuo: questa risposta non ha giocato nulla."
	if !strings.Contains(ans.text, want) {
		t.Errorf("the answer does not say %q:\n%s", want, ans.text)
	}
	for _, not := range []string{"Tocca a", "è andata avanti", "hai giocato"} {
		if strings.Contains(ans.text, not) {
			t.Errorf("the answer says %q:\n%s", not, ans.text)
		}
	}
}
