package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/lords"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/projections"
)

// TestRecordTakeback: a move taken back takes its turn back: the turn is
// owed once, and timed from when it first began.
func TestRecordTakeback(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	g, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	s := newSeason(t, g)
	id := playtest.CreateLords(t, s.svc, 3)
	seat, tok, mv := playtest.UntilReversible(t, s.svc, id)
	stints := func() projections.Stint {
		t.Helper()
		evs, err := s.store.ReadStream(ctx, id, 1)
		if err != nil {
			t.Fatal(err)
		}
		all, err := projections.Stints(engine.NewRegistry(g), evs)
		if err != nil {
			t.Fatal(err)
		}
		return all[seat]
	}
	before := stints()
	move := func() int64 {
		t.Helper()
		sm, err := s.svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		v, err := s.svc.Move(ctx, id, tok, play1.MoveRequest{Version: sm.Version, Move: play1.PostedMove(mv)})
		if err != nil {
			t.Fatal(err)
		}
		return v.Version
	}
	s.at = s.at.Add(10 * time.Minute)
	v := move()
	if got := stints(); got.Owed() != before.Owed()+1 || got.MoveMillis[len(got.MoveMillis)-1] != 10*60*1000 {
		t.Fatalf("after the move: %d owed (before %d), times %v", got.Owed(), before.Owed(), got.MoveMillis)
	}
	s.at = s.at.Add(5 * time.Minute)
	if _, err := s.svc.Takeback(ctx, id, tok, play1.TakebackRequest{Version: v}); err != nil {
		t.Fatal(err)
	}
	if got := stints(); got.Owed() != before.Owed() {
		t.Fatalf("after the take-back: %d owed, want %d", got.Owed(), before.Owed())
	}
	s.at = s.at.Add(5 * time.Minute)
	move()
	if got := stints(); got.Owed() != before.Owed()+1 || got.MoveMillis[len(got.MoveMillis)-1] != 20*60*1000 {
		t.Fatalf("after the move again: %d owed (before %d), times %v", got.Owed(), before.Owed(), got.MoveMillis)
	}
}

// TestRecordPause: the time a game is paused is not time to move, and a
// record of one turn is "new".
func TestRecordPause(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSeason(t)
	c, err := s.svc.Create(ctx, play1.CreateGame{Organiser: play1.Organiser{Name: "Org", Email: "org@example.org"}, Game: "count",
		Options: json.RawMessage(`{"target":18,"rounds":3}`),
		Players: []play1.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	s.at = s.at.Add(30 * time.Minute)
	if _, err := s.svc.Pause(ctx, c.ID, c.AdminToken, ""); err != nil {
		t.Fatal(err)
	}
	s.at = s.at.Add(48 * time.Hour)
	if _, err := s.svc.Resume(ctx, c.ID, c.AdminToken); err != nil {
		t.Fatal(err)
	}
	s.at = s.at.Add(10 * time.Minute)
	tok := s.seatToken(t, c.ID, 0)
	v, err := s.svc.View(ctx, c.ID, tok)
	if err != nil {
		t.Fatal(err)
	}
	mv, _ := json.Marshal(v.LegalMoves[0])
	if _, err := s.svc.Move(ctx, c.ID, tok, play1.MoveRequest{Version: v.Version, Move: play1.PostedMove(mv)}); err != nil {
		t.Fatal(err)
	}
	ann, err := s.svc.RecordOf(ctx, "Ann@Example.org")
	if err != nil {
		t.Fatal(err)
	}
	if ann.GamesActive != 1 || ann.TurnsOwed != 1 || ann.MedianMoveSeconds == nil || *ann.MedianMoveSeconds != 40*60 ||
		ann.ReliabilityWord != projections.ReliabilityNew {
		t.Errorf("Ann: %d active, %d owed, median %v s, %q; want 1, 1, 2400 s, new", ann.GamesActive, ann.TurnsOwed, ann.MedianMoveSeconds, ann.ReliabilityWord)
	}
}
