package postgres_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections"
	"pbem/projections/testgame"
)

// TestRoundEndDropsACallToMoveThatPassed: a round-end email tells the
// seat awaited at the round's end its moves and deadline beside the
// round's summary. Sent while that seat is still awaited, it lists them;
// sent after the seat played (the mail grace, a retry), it still tells
// the round but no longer asks for a move the seat made (a user trial
// found such an email listing a card already played, and one sent after
// the game's end asking to play before a deadline: such a one is now
// folded into the game-over email).
func TestRoundEndDropsACallToMoveThatPassed(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ctx := context.Background()
	rd, err := notify.NewRenderer(notify.RenderConfig{Secret: rigSecret, PublicURL: "https://pbem.example.org",
		ReplyDomain: "reply.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := notify.NewWorker(notify.WorkerConfig{Store: postgres.NewOutbox(r.pool), Freshness: postgres.NewOutbox(r.pool),
		Sender: smtpSender(t, r.sink), Renderer: rd, Seats: postgres.NewSeats(r.pool, r.hist), Now: r.clock.Now, RecordFor: -1})
	if err != nil {
		t.Fatal(err)
	}
	r.work = w
	g := r.create(projections.PolicyDefaultMove)
	emails := emailsByKind(r)
	emails() // the invitations

	// move plays the first legal move of the seat awaited, without sending
	// the emails it owes; it returns the seat that played.
	move := func() int {
		t.Helper()
		row := r.game(g.ID)
		seat := row.ToMove[0]
		sv, err := playtest.SeatView(ctx, r.svc, rigSecret, g.ID, seat)
		if err != nil {
			t.Fatal(err)
		}
		mv, _ := json.Marshal(sv.LegalMoves[0])
		if _, err := r.svc.MoveAs(ctx, g.ID, seat, play.MoveRequest{Version: sv.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatal(err)
		}
		return seat
	}
	// roundEnd plays until a round ends and returns the seat awaited then.
	roundEnd := func() int {
		t.Helper()
		for range 20 {
			before := r.game(g.ID).Version
			move()
			if roundEnded(r, g.ID, before) {
				return r.game(g.ID).ToMove[0]
			}
		}
		t.Fatal("no round ended in 20 moves")
		return -1
	}
	callsToMove := func(m smtpsink.Parsed) []string {
		var calls []string
		for _, s := range []string{"Merci de jouer avant le", "Vos coups.", "\n1. "} {
			if strings.Contains(m.Text, s) {
				calls = append(calls, s)
			}
		}
		return calls
	}

	// Sent while the seat is awaited: the awaited seat's round-end email
	// asks for its move, as its your-turn email would (no your-turn
	// email goes beside it, saying "your turn" again), with the reply
	// address of the round's end; told up to the game as it stands, it
	// tells the table talk written since, which no email of its own tells.
	awaited := roundEnd()
	at := r.game(g.ID)
	chat := "Belle manche, à toi de jouer"
	if err := r.svc.Chat(ctx, g.ID, tokens.Seat(rigSecret, g.ID, 1-awaited, 0), chat, "chat-round"); err != nil {
		t.Fatal(err)
	}
	sent := emails()
	ends := sent["round_end"]
	if len(ends) != 2 {
		t.Fatalf("%d round-end emails, want one to each seat", len(ends))
	}
	m := ends[awaited]
	if len(callsToMove(m)) != 3 || !strings.Contains(m.Subject, "à vous de jouer") || !strings.Contains(m.Text, "C'est maintenant à vous de jouer.") {
		t.Fatalf("the round-end email to seat %d, awaited and not yet played, does not ask for its move (found only %q), or not in its subject %q:\n%s",
			awaited, callsToMove(m), m.Subject, m.Text)
	}
	if other, ok := sent["other"][awaited]; ok {
		t.Fatalf("seat %d got another email beside its round-end email: %q\n%s", awaited, other.Subject, other.Text)
	}
	if !strings.Contains(m.Text, chat) {
		t.Fatalf("the round-end email to seat %d does not tell the table talk written before it went out:\n%s", awaited, m.Text)
	}
	sv, err := playtest.SeatView(ctx, r.svc, rigSecret, g.ID, awaited)
	if err != nil {
		t.Fatal(err)
	}
	a, err := notify.ParseReplyAddress(m.Header.Get("Reply-To"), "reply.example.org")
	if err != nil || a.Seat != awaited || a.Version != at.Version || !a.Signed || a.Choice != projections.ChoiceTag(sv.LegalMoves) {
		t.Fatalf("the round-end email to seat %d replies to %q (%+v, %v), want the address of its moves at the round's end v%d",
			awaited, m.Header.Get("Reply-To"), a, err, at.Version)
	}

	// Sent after the awaited seat played: the round, without the call.
	awaited = roundEnd()
	if played := move(); played != awaited {
		t.Fatalf("seat %d played, not seat %d awaited at the round's end", played, awaited)
	}
	ends = emails()["round_end"]
	m, ok := ends[awaited]
	if !ok || len(ends) != 2 {
		t.Fatalf("round-end emails to seats %v, want one to each seat", ends)
	}
	if calls := callsToMove(m); len(calls) != 0 {
		t.Errorf("the round-end email to seat %d, sent after its move, still asks for it (%q):\n%s", awaited, calls, m.Text)
	}
	if !strings.Contains(m.Text, "Manche ") {
		t.Errorf("the round-end email to seat %d no longer tells the round:\n%s", awaited, m.Text)
	}

	// Waiting at the game's end: the round-end emails are not sent (the
	// game-over email tells their rounds, TestRoundEndFoldsIntoTheGameOver),
	// and no email asks for a move.
	for moves := 0; r.game(g.ID).Status == projections.StatusActive; moves++ {
		if moves > 200 {
			t.Fatal("the game does not end")
		}
		move()
	}
	last := emails()
	if len(last["round_end"]) != 0 || len(last["other"]) == 0 {
		t.Fatalf("at the game's end %d round-end emails and %d others went out, want none and the game-over emails", len(last["round_end"]), len(last["other"]))
	}
	for seat, m := range last["other"] {
		// (Its ranking is a numbered list: "1. " is no call to move there.)
		if strings.Contains(m.Text, "Merci de jouer avant le") || strings.Contains(m.Text, "Vos coups.") || !strings.Contains(m.Text, "Manche ") {
			t.Errorf("the email to seat %d after the game's end asks for a move, or tells no round:\n%s", seat, m.Text)
		}
	}
}

// emailsByKind returns a function that sends what r's outbox has due and
// returns the emails sent since its last call, by kind (the subject's
// catalog, French: the rig's games are in French) and seat (by address).
func emailsByKind(r *asyncRig) func() map[string]map[int]smtpsink.Parsed {
	seen := 0
	return func() map[string]map[int]smtpsink.Parsed {
		r.t.Helper()
		got := r.mail(seen)
		seen += len(got)
		out := map[string]map[int]smtpsink.Parsed{}
		for _, m := range got {
			kind := "other"
			if strings.HasPrefix(m.Subject, "Fin de la manche") {
				kind = "round_end"
			}
			seat := map[string]int{"ann@example.org": 0, "bob@example.org": 1}[rcpt(r.t, m)]
			if out[kind] == nil {
				out[kind] = map[int]smtpsink.Parsed{}
			}
			out[kind][seat] = m
		}
		return out
	}
}

// roundEnded reports whether a round of game id (testgame) ended in its
// events after version from.
func roundEnded(r *asyncRig, id string, from int64) bool {
	return slices.Contains(r.eventTypes(id, from+1), testgame.RoundEnded{}.EventType())
}
