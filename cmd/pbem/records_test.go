package main

import (
	"context"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	ppg "pbem/projections/postgres"
)

// TestRebuildAndVerifyRecords plays a Lords of Scotland game to its end
// (a person's seat handed to an easy bot, beside a normal one) and aborts another,
// then runs `pbem rebuild` (the records of both ended games and the
// ratings) and `pbem verify --all` (equal); a stored record changed by
// hand makes verify fail with exit status 1.
func TestRebuildAndVerifyRecords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, pool, games := commandDB(t)
	store := evpg.New(pool)
	defer store.Close()
	secret := []byte("a secret of at least thirty-two bytes")
	svc := play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool),
		Records: ppg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret})
	var ids []string
	for range 2 {
		c, err := svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: "lords-of-scotland",
			Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Robot", Bot: "normal"}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
		if len(ids) == 2 {
			if _, err := svc.Abort(ctx, c.ID, c.AdminToken); err != nil {
				t.Fatal(err)
			}
			break
		}
		botsPlayToEnd(t, ctx, svc, c)
	}
	env := map[string]string{"DATABASE_URL": url, "PBEM_SECRET": string(secret), "PBEM_DATA": t.TempDir()}
	pbem := pbemWith(ctx, env)
	if code, out := pbem("rebuild"); code != 0 || !strings.Contains(out, "rebuilt the records of 2 ended games and the ratings") {
		t.Fatalf("rebuild: %d\n%s", code, out)
	}
	var rated int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM ratings WHERE bot <> ''`).Scan(&rated); err != nil || rated != 2 {
		t.Fatalf("ratings of the bots: %d, %v", rated, err)
	}
	if code, out := pbem("verify", "--all"); code != 0 || !strings.Contains(out, "records of 2 ended games and the ratings match their events (0 ended games not folded yet)") {
		t.Fatalf("verify: %d\n%s", code, out)
	}
	if _, err := pool.Exec(ctx, `UPDATE seat_records SET timed_out = timed_out + 1 WHERE game_id = $1 AND seat = 0`, ids[0]); err != nil {
		t.Fatal(err)
	}
	if code, out := pbem("verify", "--all"); code != 1 || !strings.Contains(out, "FAIL records") || !strings.Contains(out, ids[0]) {
		t.Fatalf("verify after a record was changed by hand: %d\n%s", code, out)
	}
}
