package play_test

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections"
	"pbem/projections/postgres"
)

// BenchmarkMove plays random legal moves of four-player Lords of Scotland
// games through the game service (no HTTP), one at a time against a real
// database: the time and allocations of Service.Move alone, its append and
// commit included. Choosing the move (a view) and starting a new game when
// one ends are not timed. The time a move waits for the database's commit
// varies with the machine's load; cpu-ns/op, the process's CPU time
// (user and system, all threads) during the moves, is the steadier figure.
//
//	go test ./events/play -run '^$' -bench Move -benchmem -count 5
func BenchmarkMove(b *testing.B) {
	ctx := context.Background()
	pool := pgtest.NewPool(b)
	store := evpg.New(pool)
	defer store.Close()
	g, err := lords.New()
	if err != nil {
		b.Fatal(err)
	}
	svc := play.New(play.Config{Games: engine.NewRegistry(g), Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret})
	rng := rand.New(rand.NewPCG(1, 2))
	id := ""
	var cpu time.Duration
	b.StopTimer()
	for range b.N {
		if id == "" {
			c, err := svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name,
				Players: []play.NewPlayer{{Name: "A", Email: "a@example.org"}, {Name: "B", Email: "b@example.org"},
					{Name: "C", Email: "c@example.org"}, {Name: "D", Email: "d@example.org"}}})
			if err != nil {
				b.Fatal(err)
			}
			id = c.ID
		}
		sm, err := svc.Summary(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		tok := tokens.Seat(secret, id, sm.ToMove[rng.IntN(len(sm.ToMove))], 0)
		v, err := svc.View(ctx, id, tok)
		if err != nil {
			b.Fatal(err)
		}
		req := moveRequest(v, v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		b.StartTimer()
		before := cpuTime(b)
		_, err = svc.Move(ctx, id, tok, req)
		cpu += cpuTime(b) - before
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		if sm, err = svc.Summary(ctx, id); err != nil {
			b.Fatal(err)
		} else if sm.Status != projections.StatusActive {
			id = ""
		}
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
