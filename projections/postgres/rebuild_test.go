package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/projections"
)

// playSome plays up to n random moves of game id through the service.
func playSome(t *testing.T, svc *play1.Service, repo projections.Repository, id string, n int, rng *rand.Rand) {
	t.Helper()
	if err := play(svc, repo, id, n, rng); err != nil {
		t.Fatal(err)
	}
}

// play plays up to n random moves of game id through the service.
func play(svc *play1.Service, repo projections.Repository, id string, n int, rng *rand.Rand) error {
	ctx := context.Background()
	for range n {
		g, err := repo.Game(ctx, id)
		if err != nil {
			return err
		}
		if g.Status != projections.StatusActive {
			return nil
		}
		seat := g.ToMove[0]
		tok := tokens.Seat(secret, id, seat, g.Seats[seat].TokenGen)
		v, err := svc.View(ctx, id, tok)
		if err != nil {
			return err
		}
		mv, _ := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		if _, err := svc.Move(ctx, id, tok, play1.MoveRequest{Version: v.Version, Move: play1.PostedMove(mv), Key: "k" + strconv.FormatInt(v.Version, 10)}); err != nil {
			return fmt.Errorf("move: %w", err)
		}
	}
	return nil
}

// dump returns the projection tables' contents as JSON text.
func dump(t *testing.T, pool *pgxpool.Pool) string {
	t.Helper()
	var s string
	err := pool.QueryRow(context.Background(), `SELECT json_build_object(
		'games', (SELECT json_agg(g ORDER BY id) FROM games g),
		'seats', (SELECT json_agg(s ORDER BY game_id, seat) FROM seats s))::text`).Scan(&s)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// someGames creates games in every status, with admin actions and a timeout.
func someGames(t *testing.T, svc *play1.Service, repo projections.Repository, clock *time.Time) []string {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	var ids []string
	mustOK := func(_ *play1.Summary, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for n := 2; n <= 5; n++ {
		c := playtest.Create(t, svc, n)
		ids = append(ids, c.ID)
		playSome(t, svc, repo, c.ID, 3, rng)
		switch n {
		case 2:
			playSome(t, svc, repo, c.ID, 1000, rng) // to the end
		case 3:
			mustOK(svc.ResendLink(ctx, c.ID, c.AdminToken, 1))
			mustOK(svc.Pause(ctx, c.ID, c.AdminToken, "back on Monday"))
			mustOK(svc.Resume(ctx, c.ID, c.AdminToken))
			mustOK(svc.Extend(ctx, c.ID, c.AdminToken, time.Hour))
			playSome(t, svc, repo, c.ID, 5, rng)
		case 4:
			*clock = clock.Add(100 * time.Hour)
			if ok, err := svc.Timeout(ctx, c.ID, *clock); err != nil || !ok {
				t.Fatalf("timeout: %v %v", ok, err)
			}
		case 5:
			mustOK(svc.Abort(ctx, c.ID, c.AdminToken))
		}
	}
	return ids
}

func TestRebuildEqualsLive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := time.Now().UTC()
	svc, repo, _, pool := newServiceClock(t, &clock)
	ids := someGames(t, svc, repo, &clock)
	live := dump(t, pool)
	// Wreck the projections, keeping the primary data and versions.
	for _, q := range []string{`UPDATE games SET awaited_since = '{}'`, `UPDATE game_states SET state = '{}'::json`,
		`UPDATE games SET status = 'active', to_move = '{}', result = NULL, finished_at = NULL,
			players = '[]', extensions = 0, updated_at = now()`} {
		if _, err := pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if dump(t, pool) == live {
		t.Fatal("wrecking changed nothing")
	}
	n, err := rebuildAll(ctx, svc)
	if err != nil || n != len(ids) {
		t.Fatalf("rebuild: %d, %v", n, err)
	}
	if got := dump(t, pool); got != live {
		t.Fatalf("rebuild differs from live:\nlive:    %.2000s\nrebuilt: %.2000s", live, got)
	}
	for _, id := range ids {
		if err := svc.Verify(ctx, id); err != nil {
			t.Errorf("verify %s: %v", id, err)
		}
	}
}

func TestVerifyCatchesTampering(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := time.Now().UTC()
	svc, repo, _, pool := newServiceClock(t, &clock)
	c := playtest.Create(t, svc, 3)
	playSome(t, svc, repo, c.ID, 10, rand.New(rand.NewPCG(5, 6)))
	if err := svc.Verify(ctx, c.ID); err != nil {
		t.Fatalf("verify before tampering: %v", err)
	}
	// Give seat 0 a better card in an event's data (another one if it
	// played that card: the deal is random).
	tag, err := pool.Exec(ctx, `UPDATE events SET data = CASE WHEN data->>'card' = 'c10'
			THEN '{"seat":0,"card":"c9"}'::json ELSE '{"seat":0,"card":"c10"}'::json END
		WHERE stream = $1 AND version = (SELECT min(version) FROM events WHERE stream = $1 AND type = 'played')`, c.ID)
	if err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("tamper: %v %v", tag, err)
	}
	var ce *events.ChainError
	if err := svc.Verify(ctx, c.ID); !errors.As(err, &ce) {
		t.Fatalf("verify after tampering = %v, want a chain error", err)
	}

	// A projection edited behind the service's back is caught too.
	d := playtest.Create(t, svc, 2)
	playSome(t, svc, repo, d.ID, 4, rand.New(rand.NewPCG(7, 8)))
	if _, err := pool.Exec(ctx, `UPDATE game_states SET state = jsonb_set(state::jsonb, '{totals,0}', '99')::json WHERE game_id = $1`, d.ID); err != nil {
		t.Fatal(err)
	}
	if err := svc.Verify(ctx, d.ID); play1.ErrorCode(err) != events.CodeCorrupt {
		t.Fatalf("verify of an edited projection = %v, want %s", err, events.CodeCorrupt)
	}
}

// TestRebuildWhilePlaying rebuilds games again and again while they are
// played: every game still verifies afterwards (no move's projection is
// overwritten by an older rebuild).
func TestRebuildWhilePlaying(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := time.Now().UTC()
	svc, repo, _, _ := newServiceClock(t, &clock)
	var ids []string
	for range 3 {
		ids = append(ids, playtest.Create(t, svc, 3).ID)
	}
	done := make(chan struct{})
	var playErr error
	go func() {
		defer close(done)
		rng := rand.New(rand.NewPCG(11, 12))
		for range 15 {
			for _, id := range ids {
				if playErr = play(svc, repo, id, 1, rng); playErr != nil {
					return
				}
			}
		}
	}()
	rebuilds := 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		if _, err := rebuildAll(ctx, svc); err != nil {
			t.Fatalf("rebuild: %v", err)
		}
		rebuilds++
	}
	if playErr != nil {
		t.Fatalf("play: %v", playErr)
	}
	for _, id := range ids {
		if err := svc.Verify(ctx, id); err != nil {
			t.Errorf("verify %s after %d rebuilds: %v", id, rebuilds, err)
		}
	}
}

// rebuildAll rebuilds every game, oldest first, as pbem rebuild does, and
// returns how many it rebuilt; it stops at the first error.
func rebuildAll(ctx context.Context, svc *play1.Service) (int, error) {
	ids, err := svc.GameIDs(ctx)
	if err != nil {
		return 0, err
	}
	for i, id := range ids {
		if err := svc.Rebuild(ctx, id); err != nil {
			return i, fmt.Errorf("rebuild %s: %w", id, err)
		}
	}
	return len(ids), nil
}
