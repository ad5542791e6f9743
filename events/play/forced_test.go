package play_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"pbem/events/pbemevent"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/testgame"
)

// TestForcedStepsPlayThrough plays the test game with forced draws (a
// seat with an empty hand draws without being asked): when Bob plays his
// last card, Ann's hand and then Bob's are empty at their turns, so both
// draws are played for them in the same append, as "forced:N", and the
// turn comes back to Ann, who has a choice again. Nobody is asked for a
// forced step: the only email the move owes that asks a move is Ann's
// (her round-end email: Bob's last card ends the round), at the version
// after the chain.
func TestForcedStepsPlayThrough(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC)
	svc, repo, store, pool := playtest.NewService(t, func() time.Time { return clock })
	c := playtest.CreateWith(t, svc, 2, `{"target":1000,"forced":true}`)
	// Each plays their three cards: Ann, Bob, Ann, Bob, Ann, Bob.
	var v *play1.View
	var lastBefore int64 // the version Bob's last card was played at
	for i := range 6 {
		seat := i % 2
		tok := tokens.Seat(secret, c.ID, seat, 0)
		cur, err := svc.View(ctx, c.ID, tok)
		if err != nil {
			t.Fatal(err)
		}
		if len(cur.ToMove) != 1 || cur.ToMove[0] != seat {
			t.Fatalf("move %d: %v to move, want seat %d", i, cur.ToMove, seat)
		}
		var play play1.PostedMove
		for _, m := range cur.LegalMoves {
			if m.(testgame.Move).Kind == "play" {
				play = play1.PostedMove(`{"kind":"play","card":"` + m.(testgame.Move).Card + `"}`)
				break
			}
		}
		if play == nil {
			t.Fatalf("move %d: seat %d has no card to play: %v", i, seat, cur.LegalMoves)
		}
		before := cur.Version
		lastBefore = before
		if v, err = svc.Move(ctx, c.ID, tok, play1.MoveRequest{Version: cur.Version, Move: play}); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if i < 5 && v.Version > before+2 {
			t.Fatalf("move %d: version %d after %d: a step was forced while hands held cards", i, v.Version, before)
		}
	}
	g, err := repo.Game(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.ToMove) != 1 || g.ToMove[0] != 0 {
		t.Fatalf("after the chain %v is awaited, want Ann (seat 0)", g.ToMove)
	}
	evs, err := store.ReadStream(ctx, c.ID, 1)
	if err != nil {
		t.Fatal(err)
	}
	var forced []string
	for _, e := range evs {
		if _, ok := pbemevent.SeatOfForced(e.Meta.Actor); ok {
			forced = append(forced, e.Meta.Actor+" "+e.Type)
			if e.Meta.RequestID != evs[len(evs)-1].Meta.RequestID {
				t.Errorf("forced event v%d has request id %q, not its move's", e.Version, e.Meta.RequestID)
			}
		}
	}
	if len(forced) < 2 || forced[0] != "forced:0 drew" || forced[1] != "forced:1 drew" {
		t.Fatalf("forced events %v, want Ann's draw then Bob's", forced)
	}
	// Nobody is asked for a forced step: after Bob's last card, which
	// ends the round, the one email that asks a move is Ann's round-end
	// email, at the game's version (a round-end email asks the awaited
	// seat's move: no your-turn email goes beside it).
	// (Your-turn emails the worker has not written yet wait on the game's
	// row: games.turn_mail, migration 0101.)
	rows, err := pool.Query(ctx, `SELECT m.seat, m.version, m.kind, coalesce((o.payload->>'awaited')::boolean, m.kind = 'your_turn')
FROM `+playtest.MailSQL+` m LEFT JOIN outbox o ON o.game_id = m.game_id AND o.id = m.ord
WHERE m.game_id = $1 AND m.kind IN ('your_turn', 'round_end') AND m.version > $2 ORDER BY m.ord`, c.ID, lastBefore)
	if err != nil {
		t.Fatal(err)
	}
	var asks, kinds []string
	for rows.Next() {
		var s int
		var ver int64
		var kind string
		var awaited bool
		if err := rows.Scan(&s, &ver, &kind, &awaited); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, fmt.Sprintf("%s→%d v%d", kind, s, ver))
		if awaited {
			asks = append(asks, fmt.Sprintf("%s→%d v%d", kind, s, ver))
		}
	}
	rows.Close()
	if want := fmt.Sprintf("round_end→0 v%d", g.Version); len(asks) != 1 || asks[0] != want || slices.Contains(kinds, fmt.Sprintf("your_turn→0 v%d", g.Version)) {
		t.Fatalf("emails after Bob's last card: %v, those that ask a move %v; want Ann's %s alone to ask", kinds, asks, want)
	}
	// The history tells who the step was played for.
	h, err := svc.History(ctx, c.ID, tokens.Seat(secret, c.ID, 1, 0))
	if err != nil {
		t.Fatal(err)
	}
	told := 0
	for _, r := range h.Events {
		if _, ok := pbemevent.SeatOfForced(r.Actor); ok {
			told++
			if r.ActorName != "" {
				t.Errorf("forced row v%d is named after %q, as if its seat had played it", r.Version, r.ActorName)
			}
		}
	}
	if told != len(forced) {
		t.Fatalf("history has %d forced rows, the stream %d", told, len(forced))
	}
	if g.Status != projections.StatusActive {
		t.Fatalf("status %s", g.Status)
	}
}
