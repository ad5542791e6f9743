package play_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/projections"
	"pbem/projections/outbox"
	"pbem/projections/postgres"
)

// BenchmarkTurnPayloadAtClaim is what the mail worker's claim does for
// each your-turn email a games row owes once due (notify/postgres's
// turnRows): read the game's row with its state snapshot and the events
// since (projections.TurnEvents), and write the email from them
// (projections.TurnRow: the snapshot advanced, the append's lines, the
// seat's legal moves), in a three-player Lords game 60 moves in. The move itself no longer writes the payload.
//
//	go test ./events/play -run '^$' -bench TurnPayloadAtClaim -benchmem
func BenchmarkTurnPayloadAtClaim(b *testing.B) {
	ctx := context.Background()
	pool := pgtest.NewPool(b)
	store := evpg.New(pool)
	defer store.Close()
	lg, err := lords.New()
	if err != nil {
		b.Fatal(err)
	}
	games := engine.NewRegistry(lg)
	repo := postgres.New(pool)
	svc := play.New(play.Config{Games: games, Store: store, Repo: repo, Accounts: playpg.New(pool), Visits: playpg.New(pool),
		Secret: secret, MailGrace: time.Hour, Seeds: playtest.Seeds(b.Name())})
	id := playtest.CreateLords(b, svc, 3)
	rng := rand.New(rand.NewPCG(60, 1))
	for range 60 {
		if playtest.PlayRandom(b, svc, secret, id, rng) == nil {
			break
		}
	}
	var owed string
	if err := pool.QueryRow(ctx, `SELECT turn_mail::text FROM games WHERE id = $1`, id).Scan(&owed); err != nil {
		b.Fatal(err)
	}
	var turns []outbox.Turn
	if err := json.Unmarshal([]byte(owed), &turns); err != nil || len(turns) == 0 {
		b.Fatalf("owed %s: %v", owed, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		g, err := repo.Game(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		evs, err := store.ReadStream(ctx, id, projections.TurnEvents(g, turns[0]))
		if err != nil {
			b.Fatal(err)
		}
		if _, ok, err := projections.TurnRow(games, g, evs, turns[0]); err != nil || !ok {
			b.Fatal(ok, err)
		}
	}
}
