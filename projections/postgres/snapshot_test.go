package postgres_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/testgame"
)

// TestStateSnapshots plays a long game and checks, after every move, that
// the stored state snapshot (game_states) is at most SnapshotEvery events
// behind its game, that a second service which reads the game from the
// database (no cached state: it catches up from the snapshot and the
// events after it) shows every seat the same view as the service that
// played the moves, and that verify passes; the finished game keeps its
// final state.
func TestStateSnapshots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, repo, _, pool := playtest.NewService(t, time.Now)
	req := play1.CreateGame{Organiser: play1.Organiser{Name: "Org", Email: "org@example.org"}, Game: testgame.Name,
		Options: json.RawMessage(`{"target":1000,"rounds":50}`)}
	for _, n := range []string{"Ann", "Bob", "Cid"} {
		req.Players = append(req.Players, play1.NewPlayer{Name: n, Email: n + "@example.org"})
	}
	c, err := svc.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 9))
	behind, snapshots := 0, map[int64]bool{}
	for moves := 0; ; moves++ {
		var status string
		var version, snapshot int64
		if err := pool.QueryRow(ctx, `SELECT g.status, g.version, s.version FROM games g JOIN game_states s ON s.game_id = g.id
			WHERE g.id = $1`, c.ID).Scan(&status, &version, &snapshot); err != nil {
			t.Fatal(err)
		}
		snapshots[snapshot] = true
		if snapshot > version || version-snapshot >= projections.SnapshotEvery {
			t.Fatalf("version %d: snapshot at %d", version, snapshot)
		}
		if snapshot < version {
			behind++
		}
		fresh := playtest.OtherService(t, pool)
		for seat := range 3 {
			tok := tokens.Seat(secret, c.ID, seat, 0)
			want, err := svc.View(ctx, c.ID, tok)
			if err != nil {
				t.Fatal(err)
			}
			got, err := fresh.View(ctx, c.ID, tok)
			if err != nil {
				t.Fatalf("version %d, snapshot %d: view of a service without cache: %v", version, snapshot, err)
			}
			w, _ := json.Marshal(want)
			g, _ := json.Marshal(got)
			if !bytes.Equal(w, g) {
				t.Fatalf("version %d, snapshot %d, seat %d: view from the snapshot differs:\n got %s\nwant %s", version, snapshot, seat, g, w)
			}
		}
		if err := fresh.Verify(ctx, c.ID); err != nil {
			t.Fatalf("version %d, snapshot %d: verify: %v", version, snapshot, err)
		}
		if status != projections.StatusActive {
			if snapshot != version {
				t.Fatalf("%s game at version %d keeps the snapshot of %d", status, version, snapshot)
			}
			break
		}
		// Every other move is played by the service without cache: its
		// move starts from the caught-up state.
		player := svc
		if moves%2 == 1 {
			player = fresh
		}
		playSome(t, player, repo, c.ID, 1, rng)
	}
	t.Logf("snapshots at %v; %d of the reads caught up from an older one", snapshots, behind)
	if len(snapshots) < 3 || behind == 0 {
		t.Fatalf("the game took snapshots at %v, %d reads behind one: too short to test", snapshots, behind)
	}
}
