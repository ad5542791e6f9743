package play_test

import (
	"context"
	"testing"
	"time"

	"pbem/events/pbemevent"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/outbox"
	"pbem/projections/testgame"
)

// TestForcedStepsPlayThrough plays the test game with forced draws (a
// seat with an empty hand draws without being asked): when Bob plays his
// last card, Ann's hand and then Bob's are empty at their turns, so both
// draws are played for them in the same append, as "forced:N", and the
// turn comes back to Ann, who has a choice again. Nobody is asked for a
// forced step: the only your-turn email the move owes is Ann's, at the
// version after the chain.
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
	// Nobody is asked for a forced step: after Bob's last card, the one
	// your-turn email owed is Ann's, at the game's version.
	var seats []int
	var versions []int64
	// (Those the worker has not written yet wait on the game's row:
	// games.turn_mail, migration 0101.)
	rows, err := pool.Query(ctx, `SELECT seat, version FROM `+playtest.MailSQL+` m WHERE game_id = $1 AND kind = $2 AND version > $3 ORDER BY ord`,
		c.ID, string(outbox.YourTurn), lastBefore)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s int
		var ver int64
		if err := rows.Scan(&s, &ver); err != nil {
			t.Fatal(err)
		}
		seats, versions = append(seats, s), append(versions, ver)
	}
	rows.Close()
	if len(seats) != 1 || seats[0] != 0 || versions[0] != g.Version {
		t.Fatalf("your-turn rows after Bob's last card: seats %v at versions %v, want Ann's at %d", seats, versions, g.Version)
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
