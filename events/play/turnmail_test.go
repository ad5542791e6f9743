package play_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	notifypg "pbem/notify/postgres"
	"pbem/projections/outbox"
	"pbem/projections/testgame"
)

// TestYourTurnOwedByTheGameRow: a move's your-turn email is owed by the
// game row (games.turn_mail, migration 0101), not written to the outbox;
// a move that follows within the mail grace replaces it; the worker's
// claim writes it to the outbox once its grace has ended, to the seat
// then awaited, about the version that made it so, and the row owes
// nothing more.
func TestYourTurnOwedByTheGameRow(t *testing.T) {
	ctx := context.Background()
	svc, repo, _, pool := serviceOf(t, time.Hour, testgame.Game{})
	id := playtest.Create(t, svc, 3).ID
	rng := rand.New(rand.NewPCG(45, 2))
	for range 2 {
		g, err := repo.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tok := tokens.Seat(secret, id, g.ToMove[0], 0)
		v, err := svc.View(ctx, id, tok)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: playtest.MoveOf(t, v, rng)}); err != nil {
			t.Fatal(err)
		}
	}
	g, err := repo.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var rows, owed int
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM outbox WHERE game_id = $1 AND kind = 'your_turn'),
		(SELECT json_array_length(turn_mail) FROM games WHERE id = $1)`, id).Scan(&rows, &owed); err != nil {
		t.Fatal(err)
	}
	if rows != 0 || owed != 1 {
		t.Fatalf("after two moves: %d your-turn rows in the outbox and %d owed by the game row, want 0 and 1", rows, owed)
	}
	mail := notifypg.NewOutbox(pool)
	claim := func(at time.Time) (turns []int) {
		t.Helper()
		got, err := mail.Claim(ctx, at, 100, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range got {
			if r.Kind == outbox.YourTurn {
				if r.EventVersion != g.Version {
					t.Errorf("your-turn email about version %d, want %d", r.EventVersion, g.Version)
				}
				turns = append(turns, r.Seat)
			}
		}
		return turns
	}
	if turns := claim(time.Now()); len(turns) != 0 {
		t.Fatalf("within the grace the claim took your-turn emails to seats %v", turns)
	}
	if turns := claim(time.Now().Add(2 * time.Hour)); len(turns) != 1 || turns[0] != g.ToMove[0] {
		t.Fatalf("after the grace the claim took your-turn emails to seats %v, want one to seat %d", turns, g.ToMove[0])
	}
	var left *string
	if err := pool.QueryRow(ctx, `SELECT turn_mail::text FROM games WHERE id = $1`, id).Scan(&left); err != nil || left != nil {
		t.Fatalf("the game row still owes %v (%v)", left, err)
	}
}
