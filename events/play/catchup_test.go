package play_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

// SeatCatchUp, through the service on PostgreSQL: the lines start after
// the later of the seat's last move and its previous visit; a live update
// (keep) keeps the open page's start unless the seat moved since, and is
// no visit; there
// is a view before the lines exactly when there are lines; a bad token or
// game is refused without recording a visit.
func TestSeatCatchUpStartsAfterTheLastMoveOrVisit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _, _, pool := playtest.NewService(t, nil)
	visits := playpg.New(pool)
	// A game that cannot end within the test's moves (at a target of 25,
	// some deals ended it before the last visits).
	c := playtest.CreateWith(t, svc, 2, `{"target":1000,"rounds":50}`)
	tok := tokens.Seat(secret, c.ID, 0, 0)
	rng := rand.New(rand.NewPCG(14, 1))
	var lastMove int64
	// moves plays n moves of whoever is awaited, and returns the version.
	moves := func(n int) int64 {
		t.Helper()
		for range n {
			sm, err := svc.Summary(ctx, c.ID)
			if err != nil || len(sm.ToMove) == 0 {
				t.Fatalf("nobody to move: %v", err)
			}
			seat := sm.ToMove[0]
			v, err := playtest.SeatView(ctx, svc, secret, c.ID, seat)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := svc.MoveAs(ctx, c.ID, seat, play.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)}); err != nil {
				t.Fatal(err)
			}
			if seat == 0 {
				sm, _ := svc.Summary(ctx, c.ID)
				lastMove = sm.Version
			}
		}
		sm, _ := svc.Summary(ctx, c.ID)
		return sm.Version
	}
	catchUp := func(version, keep int64) *play.CatchUp {
		t.Helper()
		cu, err := svc.SeatCatchUp(ctx, c.ID, tok, version, keep)
		if err != nil {
			t.Fatal(err)
		}
		// No table talk here: every event after From but the creation.
		for i, l := range cu.Lines {
			if l.Version != max(cu.From, 1)+int64(i)+1 || l.Text == "" || l.Type == pbemevent.TypeCreated {
				t.Fatalf("line %d: %+v (from v%d)", i, l, cu.From)
			}
		}
		return cu
	}

	v1 := moves(0)
	if cu := catchUp(v1, -1); cu.From != 0 || len(cu.Lines) != int(v1-1) || (cu.Before == nil) != (v1 == 1) {
		t.Fatalf("first visit at v%d: from v%d, %d lines, before %v", v1, cu.From, len(cu.Lines), cu.Before)
	}
	v2 := moves(6)
	cu := catchUp(v2, -1)
	if want := max(v1, lastMove); cu.From != want || len(cu.Lines) != int(v2-want) {
		t.Fatalf("second visit at v%d: from v%d, %d lines; want from v%d", v2, cu.From, len(cu.Lines), want)
	}
	if again := catchUp(v2, -1); again.From != cu.From || len(again.Lines) != len(cu.Lines) {
		t.Errorf("a reload at v%d starts at v%d, not v%d", v2, again.From, cu.From)
	}
	// A live update keeps the page's start while the seat does not move.
	open := cu.From
	for range 10 {
		sm, _ := svc.Summary(ctx, c.ID)
		if len(sm.ToMove) == 0 || sm.ToMove[0] == 0 {
			break
		}
		moves(1)
	}
	v3 := moves(0)
	if live := catchUp(v3, open); live.From != max(open, lastMove) {
		t.Errorf("live update at v%d keeping v%d: from v%d (last move v%d)", v3, open, live.From, lastMove)
	}
	// The seat moves: the next page starts after its move.
	for range 10 {
		sm, _ := svc.Summary(ctx, c.ID)
		if len(sm.ToMove) == 0 || sm.ToMove[0] == 0 {
			break
		}
		moves(1)
	}
	v4 := moves(1)
	if cu := catchUp(v4, open); cu.From != lastMove || len(cu.Lines) != int(v4-lastMove) {
		t.Errorf("after its move (v%d) at v%d: from v%d, %d lines", lastMove, v4, cu.From, len(cu.Lines))
	}
	if v4 == lastMove {
		if cu := catchUp(v4, -1); len(cu.Lines) != 0 || cu.Before != nil {
			t.Errorf("right after its move: %d lines, before %v", len(cu.Lines), cu.Before)
		}
	}

	// Refusals record nothing.
	if _, err := svc.SeatCatchUp(ctx, c.ID, "wrong", v4, -1); play.ErrorCode(err) != events.CodeUnauthorized {
		t.Errorf("a wrong token: %v", err)
	}
	if _, err := svc.SeatCatchUp(ctx, "nosuchgame", tok, v4, -1); play.ErrorCode(err) != events.CodeNotFound {
		t.Errorf("an unknown game: %v", err)
	}
	// A live update is no visit: seat 1's first page still starts at 0.
	tok1 := tokens.Seat(secret, c.ID, 1, 0)
	if _, err := svc.SeatCatchUp(ctx, c.ID, tok1, v4, 0); err != nil {
		t.Fatal(err)
	}
	if since, err := visits.Visit(ctx, c.ID, 1, v4+1); err != nil || since != 0 {
		t.Errorf("seat 1 never opened its page, yet it had seen v%d (%v)", since, err)
	}
}

// SeatCatchUp after a muster answered by email (no page seen): a seat's
// answer ends its catch-up as a move does. The seat that answered first
// is shown the other's answer and the start; the seat whose answer began
// the game, nothing.
func TestSeatCatchUpStartsAfterTheMusterAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, _, _, _ := playtest.NewService(t, nil)
	c, err := svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Game: testgame.Name, Muster: 24 * time.Hour, MusterDefault: "bot",
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range 2 {
		if err := svc.AnswerAs(ctx, c.ID, seat, true, "answer-"+strconv.Itoa(seat)); err != nil {
			t.Fatal(err)
		}
	}
	sm, err := svc.Summary(ctx, c.ID)
	if err != nil || sm.Version != 4 {
		t.Fatalf("created, two answers and the start: version %d, %v", sm.Version, err)
	}
	for seat, want := range map[int][]string{0: {pbemevent.TypeAccepted, pbemevent.TypeMustered}, 1: nil} {
		cu, err := svc.SeatCatchUp(ctx, c.ID, tokens.Seat(secret, c.ID, seat, 0), sm.Version, -1)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range cu.Lines {
			got = append(got, l.Type)
		}
		if !slices.Equal(got, want) {
			t.Errorf("seat %d's catch-up from v%d: %v, want %v", seat, cu.From, got, want)
		}
	}
}
