package play_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pbem/events/play/playtest"
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
	svc, repo, store, pool := serviceOf(t, time.Hour, testgame.Game{})
	id := playtest.Create(t, svc, 3).ID
	rng := rand.New(rand.NewPCG(45, 2))
	for range 2 {
		playtest.PlayRandom(t, svc, secret, id, rng)
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
	mail := notifypg.NewOutbox(pool).WithTurns(notifypg.Histories{Games: repo.games, Events: store})
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

// TestTurnPayloadWrittenAtClaimAsAtTheMove: the payload of a your-turn
// email the game row owes, written by the worker's claim from the game as
// it stands (projections.TurnRow), is the one the move itself writes when
// there is no grace (to the outbox at once): the same recipient, lines,
// deadline, legal moves and choice. Between the move and the claim another
// player talks at the table: the game's version moves on, the seat is
// still awaited and its moves are the same. (The two plays run on two
// databases a moment apart: their deadlines differ by that moment.)
func TestTurnPayloadWrittenAtClaimAsAtTheMove(t *testing.T) {
	ctx := context.Background()
	play2 := func(grace time.Duration) (map[int]string, int64) {
		svc, repo, store, pool := lordsService(t, grace)
		id := playtest.CreateLords(t, svc, 3)
		rng := rand.New(rand.NewPCG(45, 3))
		var owedAt int64
		for range 2 {
			owedAt = playtest.PlayRandom(t, svc, secret, id, rng).Version
		}
		g, err := repo.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		talker := (g.ToMove[0] + 1) % 3
		if err := svc.ChatAs(ctx, id, talker, "well played", "talk-1"); err != nil {
			t.Fatal(err)
		}
		if grace > 0 {
			mail := notifypg.NewOutbox(pool).WithTurns(notifypg.Histories{Games: repo.games, Events: store})
			if _, err := mail.Claim(ctx, time.Now().Add(2*time.Hour), 100, time.Minute); err != nil {
				t.Fatal(err)
			}
		}
		got := map[int]string{}
		rows, err := pool.Query(ctx, `SELECT seat, payload::text FROM outbox WHERE game_id = $1 AND kind = 'your_turn' AND event_version = $2`, id, owedAt)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var seat int
			var p string
			if err := rows.Scan(&seat, &p); err != nil {
				t.Fatal(err)
			}
			got[seat] = strings.ReplaceAll(p, id, "GAME")
		}
		if len(got) != 1 {
			t.Fatalf("grace %v: your-turn emails about v%d: %v, want one", grace, owedAt, got)
		}
		return got, owedAt
	}
	atMove, v0 := play2(0)
	atClaim, v1 := play2(time.Hour)
	if v0 != v1 {
		t.Fatalf("the two plays reached versions %d and %d", v0, v1)
	}
	for seat, p := range atMove {
		var want, got outbox.Payload
		if err := json.Unmarshal([]byte(p), &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(atClaim[seat]), &got); err != nil {
			t.Fatalf("seat %d: no payload written at the claim (%v)", seat, err)
		}
		if len(want.Moves) == 0 || len(want.Lines) == 0 || want.Choice == "" {
			t.Fatalf("the move's payload tells no moves or lines: %s", p)
		}
		// The two plays ran a second or so apart: their deadlines differ by that.
		if want.Deadline == nil || got.Deadline == nil || got.Deadline.Sub(*want.Deadline).Abs() > time.Minute {
			t.Errorf("seat %d: deadline %v at the claim, %v at the move", seat, got.Deadline, want.Deadline)
		}
		want.Deadline, got.Deadline = nil, nil
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		if string(w) != string(g) {
			t.Errorf("seat %d: written at the claim\n%s\nwritten by the move\n%s", seat, g, w)
		}
	}
}
