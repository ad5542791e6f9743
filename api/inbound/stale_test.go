package inbound_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections"
)

// untilUndoable plays the first legal move of whoever is to move in game
// id until the seat to move has a move it could take back; it returns
// that seat and the index (from 0) of such a move in its list.
func (e *env) untilUndoable(id string) (seat, move int) {
	e.t.Helper()
	ctx := context.Background()
	for range 300 {
		sm, err := e.svc.Summary(ctx, id)
		if err != nil {
			e.t.Fatal(err)
		}
		if len(sm.ToMove) == 0 {
			e.t.Fatal("the game ended before a move that can be taken back")
		}
		seat := sm.ToMove[0]
		sp, err := e.svc.SeatPage(ctx, id, tokens.Seat(secret, id, seat, 0))
		if err != nil {
			e.t.Fatal(err)
		}
		if i := slices.Index(sp.Takeback.Final, false); i >= 0 {
			return seat, i
		}
		mv, _ := json.Marshal(sp.View.LegalMoves[0])
		if _, err := e.svc.MoveAs(ctx, id, seat, play.MoveRequest{Version: sp.View.Version, Move: play.PostedMove(mv)}); err != nil {
			e.t.Fatal(err)
		}
	}
	e.t.Fatal("no move that can be taken back in 300 moves")
	return -1, -1
}

// TestOldReplyAfterTakebackIsStale is the forged-replay attack of issue
// #29 over real SMTP: a seat answers an email by reply (the move is
// played), takes the move back on its page, and the same reply is sent
// again with a new Message-ID. The seat's list of moves is the email's
// list again, so only the version the reply answered (in its reply
// address) tells that the position is not the one the email described:
// nothing is played, and the answer says why and lists the moves now
// under a fresh address, whose reply plays. A chat line between the email
// and the reply leaves the reply valid.
func TestOldReplyAfterTakebackIsStale(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	id := e.create(lords.Name, "en")
	e.inbox()
	seat, n := e.untilUndoable(id)
	other := (seat + 1) % 3
	// Another seat's chat line mails the seat its list at this version.
	if err := e.svc.ChatAs(ctx, id, other, "good luck", "chat-1"); err != nil {
		t.Fatal(err)
	}
	var em email
	for _, m := range e.inbox() {
		if m.seat == seat && len(m.moves) > 0 {
			em = m
		}
	}
	if em.replyTo == "" {
		t.Fatalf("seat %d got no email listing its moves", seat)
	}
	if !strings.Contains(em.replyTo, "w"+strconv.FormatInt(e.version(id), 10)+"-") {
		t.Fatalf("the reply address %s does not hold the email's version %d", em.replyTo, e.version(id))
	}
	listBefore := projections.Labels(e.view(id, seat).LegalMoves)
	// A chat line after the email does not make its reply stale.
	if err := e.svc.ChatAs(ctx, id, other, "take your time", "chat-2"); err != nil {
		t.Fatal(err)
	}
	e.inbox()
	before := e.version(id)
	e.reply(em, "first@client.example.org", strconv.Itoa(n+1)+"\n")
	played := e.version(id)
	if played <= before {
		t.Fatalf("the reply was not played (version %d, was %d)", played, before)
	}
	if a := e.answerTo(em); !strings.Contains(a.text, "Your move was played") {
		t.Fatalf("answer to the first reply:\n%s", a.text)
	}

	if _, err := e.svc.Takeback(ctx, id, tokens.Seat(secret, id, seat, 0), play.TakebackRequest{Version: played}); err != nil {
		t.Fatalf("take-back: %v", err)
	}
	if got := projections.Labels(e.view(id, seat).LegalMoves); !slices.Equal(got, listBefore) {
		t.Fatalf("after the take-back the list is not the email's again (the attack needs it):\n%v\n%v", got, listBefore)
	}
	evsBefore, err := e.store.ReadStream(ctx, id, 1)
	if err != nil {
		t.Fatal(err)
	}

	// The same reply, resent with a new Message-ID.
	e.reply(em, "again@client.example.org", strconv.Itoa(n+1)+"\n")
	if v := e.version(id); v != int64(len(evsBefore)) {
		t.Fatalf("the old reply changed the game: version %d, was %d", v, len(evsBefore))
	}
	ans := e.answerTo(em)
	if !strings.Contains(ans.text, "a move was taken back") || strings.Contains(ans.text, "Your move was played") {
		t.Fatalf("the answer to the old reply does not say it was stale:\n%s", ans.text)
	}
	if ans.replyTo == em.replyTo || !slices.Equal(movesOf(ans), listBefore) {
		t.Fatalf("the answer does not list the moves now under a fresh address: %s\n%v", ans.replyTo, ans.moves)
	}

	// The answer's own address plays.
	before = e.version(id)
	e.reply(ans, "fresh@client.example.org", strconv.Itoa(n+1)+"\n")
	if e.version(id) <= before {
		t.Fatal("a reply to the answer's fresh list was not played")
	}
	if a := e.answerTo(em); !strings.Contains(a.text, "Your move was played") {
		t.Fatalf("answer to the fresh reply:\n%s", a.text)
	}
}

// movesOf is the labels of em's numbered list.
func movesOf(em email) []string {
	out := make([]string, len(em.moves))
	for i := range em.moves {
		out[i] = moveLabel(em, i+1)
	}
	return out
}

// TestRewrittenReplyVersionIsRefused: the version in a reply address is
// under its tag (issue #44). A seat answers an email by reply, takes the
// move back, and sends the same reply to the address with its version
// rewritten to the version now, or deleted: before, either replayed the
// taken-back move (the check of staleness starts from the version the
// address names); now the address is refused at RCPT (550) and the game
// does not change. The address as sent still reads.
func TestRewrittenReplyVersionIsRefused(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id := e.create(lords.Name, "en")
	e.inbox()
	seat, n := e.untilUndoable(id)
	other := (seat + 1) % 3
	if err := e.svc.ChatAs(ctx, id, other, "good luck", "chat-1"); err != nil {
		t.Fatal(err)
	}
	var em email
	for _, m := range e.inbox() {
		if m.seat == seat && len(m.moves) > 0 {
			em = m
		}
	}
	if em.replyTo == "" {
		t.Fatalf("seat %d got no email listing its moves", seat)
	}
	e.reply(em, "first@client.example.org", strconv.Itoa(n+1)+"\n")
	played := e.version(id)
	if _, err := e.svc.Takeback(ctx, id, tokens.Seat(secret, id, seat, 0), play.TakebackRequest{Version: played}); err != nil {
		t.Fatalf("take-back: %v", err)
	}
	e.inbox()
	now := e.version(id)
	mark := "w" + strconv.FormatInt(played-1, 10) + "-"
	if !strings.Contains(em.replyTo, mark) {
		t.Fatalf("the reply address %s does not hold %s", em.replyTo, mark)
	}
	for what, addr := range map[string]string{
		"version rewritten": strings.Replace(em.replyTo, mark, "w"+strconv.FormatInt(now, 10)+"-", 1),
		"version deleted":   strings.Replace(em.replyTo, mark, "-", 1),
		"old form":          strings.Replace(em.replyTo, mark, "v"+strconv.FormatInt(now, 10)+"-", 1),
	} {
		rewritten := em
		rewritten.replyTo = addr
		err := e.send(em.to, addr, plain(rewritten, strings.ReplaceAll(what, " ", "-")+"@client.example.org", strconv.Itoa(n+1)+"\n"))
		var se *smtp.SMTPError
		if !errors.As(err, &se) || se.Code != 550 {
			t.Errorf("%s (%s): %v, want 550", what, addr, err)
		}
		if v := e.version(id); v != now {
			t.Fatalf("%s: the taken-back move was played again (version %d, was %d)", what, v, now)
		}
	}
}
