package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/cmd/internal/wiring"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/migrations"
	"pbem/projections"
	ppg "pbem/projections/postgres"
)

// TestMigrateStatesOfAVersion60Database loads a database written by the
// code of schema version 60 (testdata/v60_games.sql.gz: a finished and an
// active game of each engine, random legal moves played through the game
// service of commit 78cdf5a and dumped with pg_dump --data-only --inserts), migrates it with `pbem migrate up` and checks that 0070 moved
// every game's state into game_states unchanged, at the game's version;
// then `pbem verify --all`, `pbem rebuild` and verify again pass, and so
// does verify after the active games moved on past their next snapshot.
func TestMigrateStatesOfAVersion60Database(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, pool := version60(t)
	type row struct {
		version int64
		state   string
	}
	before := map[string]row{}
	rows, err := pool.Query(ctx, `SELECT id, version, state::text FROM games`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id string
		var r row
		if err := rows.Scan(&id, &r.version, &r.state); err != nil {
			t.Fatal(err)
		}
		before[id] = r
	}
	if rows.Err() != nil || len(before) != 4 {
		t.Fatalf("fixture games: %d, %v", len(before), rows.Err())
	}
	env := map[string]string{"DATABASE_URL": url, "PBEM_SECRET": fixtureSecret, "PBEM_DATA": t.TempDir()}
	pbem := pbemWith(ctx, env)
	if code, out := pbem("migrate", "up"); code != 0 {
		t.Fatalf("migrate up: %d\n%s", code, out)
	}
	pool.Reset() // plans and types of the old schema
	for id, want := range before {
		var got row
		if err := pool.QueryRow(ctx, `SELECT version, state::text FROM game_states WHERE game_id = $1`, id).Scan(&got.version, &got.state); err != nil {
			t.Fatalf("state of %s after migrating: %v", id, err)
		}
		if got != want {
			t.Fatalf("state of %s moved as version %d %.80s, want %d %.80s", id, got.version, got.state, want.version, want.state)
		}
	}
	for _, step := range [][]string{{"verify", "--all"}, {"rebuild"}, {"verify", "--all"}} {
		code, out := pbem(step...)
		if code != 0 || step[0] == "verify" && !strings.Contains(out, "4 games verified, 0 failed") {
			t.Fatalf("%s after migrating: %d\n%s", step, code, out)
		}
	}
	store := evpg.New(pool)
	defer store.Close()
	games, err := wiring.Games()
	if err != nil {
		t.Fatal(err)
	}
	svc := play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: []byte(fixtureSecret)})
	rng := rand.New(rand.NewPCG(6, 6))
	for id, r := range before {
		for range projections.SnapshotEvery + 5 {
			sm, err := svc.Summary(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if sm.Status != projections.StatusActive {
				break
			}
			tok := tokens.Seat([]byte(fixtureSecret), id, sm.ToMove[0], 0)
			v, err := svc.View(ctx, id, tok)
			if err != nil {
				t.Fatal(err)
			}
			mv, _ := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
			if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
				t.Fatalf("move after migrating (game %s, version %d before): %v", id, r.version, err)
			}
		}
	}
	if code, out := pbem("verify", "--all"); code != 0 || !strings.Contains(out, "4 games verified, 0 failed") {
		t.Fatalf("verify after moves on the migrated database: %d\n%s", code, out)
	}
}

// version60 returns a database at schema version 60 holding
// testdata/v60_games.sql.gz (see TestMigrateStatesOfAVersion60Database),
// and a pool on it, closed with the test.
func version60(t *testing.T) (string, *pgxpool.Pool) {
	t.Helper()
	url := pgtest.NewEmptyDB(t)
	if err := migrations.To(url, 60); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := pool.Exec(context.Background(), readFixture(t, "testdata/v60_games.sql.gz")); err != nil {
		t.Fatalf("load the version 60 data: %v", err)
	}
	return url, pool
}
