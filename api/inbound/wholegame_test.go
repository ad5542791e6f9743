package inbound_test

import (
	"context"
	"fmt"
	"html"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/notify"
	"pbem/projections"
	projpg "pbem/projections/postgres"
)

// TestWholeGamesByEmailReplies plays complete 3-player games of both games
// only by answering, through real SMTP conversations with the listener,
// the numbered lists of the emails the players received; the result is
// the engine's, every move is an email-channel event, every reply gets one
// answer, and no email holds another seat's moves. No seat is asked twice
// for its move at one version (the answer to its reply aside): the seat a
// round's end gives the turn to is asked by its round-end email, which the
// game answers as it would a your-turn email, and gets no your-turn email
// beside it.
func TestWholeGamesByEmailReplies(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ game, lang, roundEnd string }{{lords.Name, "fr", "Fin de la manche"}, {bagpipes.Name, "it", "Fine del round"}} {
		t.Run(c.game, func(t *testing.T) {
			e := newEnv(t)
			id := e.create(c.game, c.lang)
			rng := rand.New(rand.NewPCG(7, uint64(len(c.game))))
			latest := map[int]email{}
			asked := map[string]string{} // the email that asked a seat (by its reply address's seat and version)
			replies, roundReplies := 0, 0
			var waitingAnswer string // the address that must get exactly one answer
			for step := 0; ; step++ {
				if step > 3000 {
					t.Fatalf("no end after %d replies", replies)
				}
				answers := 0
				for _, em := range e.inbox() {
					e.checkEmail(id, em)
					if strings.HasPrefix(em.subject, "Re:") && em.to == waitingAnswer {
						answers++
					}
					if len(em.moves) > 0 {
						latest[em.seat] = em
					}
					if a, err := notify.ParseReplyAddress(em.replyTo, replyDomain); err == nil && len(em.moves) > 0 && !strings.HasPrefix(em.subject, "Re:") {
						k := fmt.Sprintf("seat %d at v%d", a.Seat, a.Version)
						if prev, ok := asked[k]; ok {
							t.Fatalf("%s asked twice: %q and %q", k, prev, em.subject)
						}
						asked[k] = em.subject
					}
				}
				if waitingAnswer != "" && answers != 1 {
					t.Fatalf("reply %d from %s got %d answers", replies, waitingAnswer, answers)
				}
				sm, err := e.svc.Summary(context.Background(), id)
				if err != nil {
					t.Fatal(err)
				}
				if sm.Ended() {
					break
				}
				seat := -1
				for s := 0; s < 3 && seat < 0; s++ {
					if _, ok := latest[s]; ok {
						seat = s
					}
				}
				if seat < 0 {
					t.Fatalf("version %d awaits %v, but no email lists a move", sm.Version, sm.ToMove)
				}
				em := latest[seat]
				delete(latest, seat)
				e.reply(em, fmt.Sprintf("r%d.%s@client.example.org", step, id), strconv.Itoa(1+rng.IntN(len(em.moves))))
				if after, err := e.svc.Summary(context.Background(), id); err != nil || after.Version <= sm.Version {
					t.Fatalf("reply %d to %q played nothing (%v)", replies, em.subject, err)
				}
				replies++
				if strings.HasPrefix(em.subject, c.roundEnd) {
					roundReplies++
				}
				waitingAnswer = em.to
			}
			sm, err := e.svc.Summary(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			want := e.engineResult(id)
			if sm.Status != projections.StatusFinished || want == nil || sm.Result == nil || len(sm.Result.Ranking) != len(want.Ranking) {
				t.Fatalf("game ended %s with %+v; the engine says %+v", sm.Status, sm.Result, want)
			}
			for i, r := range want.Ranking {
				if got := sm.Result.Ranking[i]; got.Seat != r.Seat || got.Place != r.Place || got.Score != r.Score {
					t.Errorf("ranking %d: %+v, the engine says %+v", i, got, r)
				}
			}
			if err := e.svc.Verify(context.Background(), id); err != nil {
				t.Error(err)
			}
			evs, err := e.store.ReadStream(context.Background(), id, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, ev := range evs {
				if !pbemevent.IsServiceEvent(ev.Type) && ev.Meta.Channel() != events.ChannelEmail {
					t.Fatalf("event v%d %s came by %s", ev.Version, ev.Type, ev.Meta.Channel())
				}
			}
			if roundReplies == 0 {
				t.Fatalf("none of %d replies answered a round-end email", replies)
			}
			t.Logf("%s: %d replies (%d to a round-end email), %d events, %s", c.game, replies, roundReplies, len(evs), sm.Result.Summary)
		})
	}
}

// checkEmail checks one received email against the game as it is now:
// it has a reply address, its numbered list is exactly the recipient's
// own legal moves, and it holds no label of another seat's moves that the
// recipient does not share and that no public line shows.
func (e *env) checkEmail(id string, em email) {
	e.t.Helper()
	if em.replyTo == "" || !strings.HasSuffix(em.replyTo, "@"+replyDomain) {
		e.t.Fatalf("email %q to %s has Reply-To %q", em.subject, em.to, em.replyTo)
	}
	mine := e.view(id, em.seat)
	if len(em.moves) > 0 || len(mine.LegalMoves) > 0 {
		if len(em.moves) != len(mine.LegalMoves) {
			e.t.Fatalf("email %q to seat %d lists %d moves, the seat has %d", em.subject, em.seat, len(em.moves), len(mine.LegalMoves))
		}
		for i, m := range mine.LegalMoves {
			if want := fmt.Sprintf("%d. %s", i+1, m.Label()); em.moves[i] != want {
				e.t.Fatalf("email to seat %d, line %q, want %q", em.seat, em.moves[i], want)
			}
		}
	}
	// What the seat was ever offered is its own knowledge (its answers
	// name the move it played).
	if e.known == nil {
		e.known = map[int]map[string]bool{}
	}
	own := e.known[em.seat]
	if own == nil {
		own = map[string]bool{}
		e.known[em.seat] = own
	}
	for _, m := range mine.LegalMoves {
		own[m.Label()] = true
	}
	row, err := projpg.New(e.pool).Game(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	evs, err := e.store.ReadStream(context.Background(), id, 1)
	if err != nil {
		e.t.Fatal(err)
	}
	rows, err := projections.SeatHistory(e.games, row, evs, engine.Spectator)
	if err != nil {
		e.t.Fatal(err)
	}
	var public strings.Builder
	for _, r := range rows {
		public.WriteString(r.Summary + "\n")
	}
	body := em.text + "\n" + html.UnescapeString(em.html)
	for o := 0; o < 3; o++ {
		if o == em.seat {
			continue
		}
		for _, m := range e.view(id, o).LegalMoves {
			l := m.Label()
			if own[l] || strings.Contains(public.String(), l) {
				continue
			}
			if strings.Contains(body, l) {
				e.t.Fatalf("email %q to seat %d holds seat %d's move %q", em.subject, em.seat, o, l)
			}
		}
	}
}
