package postgres_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pbem/events/play/playtest"
	"pbem/events/tokens"
	notifypg "pbem/notify/postgres"
	"pbem/projections/outbox"
)

type outboxRow struct {
	Seat    int
	Kind    outbox.Kind
	Payload outbox.Payload
	Raw     string
	Version int64
}

// TestOutboxRows checks the emails the service queues: one invitation per
// seat at creation, your_turn to each seat that starts being awaited
// (round_end, which asks it, when a round ended), round_end and game_over
// to everyone; and that no payload holds a token, the seed, or a card
// hidden from its recipient.
func TestOutboxRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := time.Now().UTC()
	svc, repo, _, pool := newServiceClock(t, &clock)
	c := playtest.Create(t, svc, 3)
	read := func() []outboxRow {
		rows, err := pool.Query(ctx, `SELECT seat, kind, payload::text, event_version FROM outbox WHERE game_id = $1 ORDER BY id`, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []outboxRow
		for rows.Next() {
			var r outboxRow
			if err := rows.Scan(&r.Seat, &r.Kind, &r.Raw, &r.Version); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(r.Raw), &r.Payload); err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	rows := read()
	if len(rows) != 3 {
		t.Fatalf("%d rows after creation, want 3 invitations", len(rows))
	}
	for i, r := range rows {
		p := r.Payload
		if r.Kind != outbox.Invitation || r.Seat != i || p.To.Seat != i || p.To.Email == "" || p.Language != "en" ||
			p.Game.ID != c.ID || len(p.Game.Players) != 3 || p.Deadline == nil || p.Version != 1 {
			t.Fatalf("invitation %d: %+v", i, r)
		}
	}
	// The your-turn emails are owed by the game row (migration 0101) until
	// the mail worker's claim writes them to the outbox: claim after every
	// move, as a worker woken by it does (no grace here).
	mail := notifypg.NewOutbox(pool)
	rng := rand.New(rand.NewPCG(9, 9))
	for range 1000 {
		playSome(t, svc, repo, c.ID, 1, rng)
		if _, err := mail.Claim(ctx, time.Now(), 1000, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	a, err := svc.Audit(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	seed := a.Seed
	rows = read()
	kinds := map[outbox.Kind]int{}
	for _, r := range rows {
		kinds[r.Kind]++
		for seat := range 3 {
			if strings.Contains(r.Raw, tokens.Seat(secret, c.ID, seat, 0)) {
				t.Fatalf("%s row holds a token", r.Kind)
			}
		}
		if strings.Contains(r.Raw, seed) || strings.Contains(r.Raw, "admin") && strings.Contains(r.Raw, "token\"") {
			t.Fatalf("%s row holds a secret: %s", r.Kind, r.Raw)
		}
		// The lines are public: a drawn card never shows.
		for _, l := range r.Payload.Lines {
			if strings.Contains(l, "draws c") {
				t.Fatalf("%s row shows a drawn card: %q", r.Kind, l)
			}
		}
	}
	// Every move but the last hands the turn to another seat of the three:
	// one email asks it each time, its your_turn, or, when the move ended
	// a round, its round_end (one goes to each seat), with no your_turn
	// beside it. (The game's length depends on its random seed.)
	var moves int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM move_requests WHERE game_id = $1`, c.ID).Scan(&moves); err != nil {
		t.Fatal(err)
	}
	asks := map[int64][]outbox.Kind{} // by version, the emails that ask a seat's move
	for _, r := range rows {
		if r.Kind == outbox.YourTurn || r.Kind == outbox.RoundEnd && r.Payload.Awaited {
			asks[r.Version] = append(asks[r.Version], r.Kind)
		}
	}
	for v, ks := range asks {
		if len(ks) != 1 {
			t.Fatalf("v%d: %v ask a move, want one email", v, ks)
		}
	}
	if moves < 3 || len(asks) != moves-1 || kinds[outbox.RoundEnd] < 3 || kinds[outbox.GameOver] != 3 {
		t.Fatalf("kinds %v after %d moves, %d of them asking a move", kinds, moves, len(asks))
	}
	last := rows[len(rows)-1]
	if last.Kind != outbox.GameOver || len(last.Payload.Ranking) != 3 || last.Payload.Summary == "" {
		t.Fatalf("last row %+v", last)
	}
	// your_turn goes to the seat that is now awaited.
	for _, r := range rows {
		if r.Kind == outbox.YourTurn && r.Version > 1 {
			var who int
			if err := pool.QueryRow(ctx, `SELECT (data->>'seat')::int FROM events WHERE stream = $1 AND version = $2`, c.ID, r.Version).Scan(&who); err == nil && who == r.Seat {
				t.Fatalf("your_turn at version %d to seat %d, who just moved", r.Version, r.Seat)
			}
		}
	}
}
