package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
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
	ppg "pbem/projections/postgres"
)

// fixtureSecret is the secret testdata/v4_games.sql.gz was written with.
const fixtureSecret = "storage benchmark"

// TestVerifyAfterMigratingAVersion4Database loads a database written by the
// code of schema version 4 (testdata/v4_games.sql.gz: a finished
// four-player and an active three-player Lords of Scotland game, their
// moves made by two services, so that their events were written both by
// the hashes chained in Go and by the PL/pgSQL events_append_at), migrates
// it to the latest schema with `pbem migrate up`, and expects `pbem verify
// --all` to pass, before and after the active game moves on with this code.
func TestVerifyAfterMigratingAVersion4Database(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewEmptyDB(t)
	if err := migrations.To(url, 4); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, readFixture(t, "testdata/v4_games.sql.gz")); err != nil {
		t.Fatalf("load the version 4 data: %v", err)
	}
	env := map[string]string{"DATABASE_URL": url, "PBEM_SECRET": fixtureSecret, "PBEM_DATA": t.TempDir()}
	pbem := pbemWith(ctx, env)
	if code, out := pbem("migrate", "up"); code != 0 {
		t.Fatalf("migrate up: %d\n%s", code, out)
	}
	if code, out := pbem("verify", "--all"); code != 0 || !strings.Contains(out, "2 games verified, 0 failed") {
		t.Fatalf("verify after migrating: %d\n%s", code, out)
	}
	pool.Reset() // plans and types of the old schema
	store := evpg.New(pool)
	defer store.Close()
	games, err := wiring.Games()
	if err != nil {
		t.Fatal(err)
	}
	svc := play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: []byte(fixtureSecret)})
	var id string
	if err := pool.QueryRow(ctx, `SELECT id FROM games WHERE status = 'active'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	for range 10 {
		sm, err := svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		tok := tokens.Seat([]byte(fixtureSecret), id, sm.ToMove[0], 0)
		v, err := svc.View(ctx, id, tok)
		if err != nil {
			t.Fatal(err)
		}
		mv, _ := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		if _, err := svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatalf("move after migrating: %v", err)
		}
	}
	if code, out := pbem("verify", "--all"); code != 0 || !strings.Contains(out, "2 games verified, 0 failed") {
		t.Fatalf("verify after moves on the migrated database: %d\n%s", code, out)
	}
}

// readFixture returns the SQL of a gzipped fixture.
func readFixture(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
