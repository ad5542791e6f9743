package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/engine/lords"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/projections"
	"pbem/projections/postgres"
)

// BenchmarkMoveVsInsert plays Lords moves through the service (no HTTP)
// from 32 goroutines, each on its own games, beside a plain single-row
// INSERT at the same concurrency; it reports both rates and their ratio.
func BenchmarkMoveVsInsert(b *testing.B) {
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(pgtest.NewDB(b))
	if err != nil {
		b.Fatal(err)
	}
	cfg.MaxConns = 40
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer pool.Close()
	store := evpg.New(pool)
	defer store.Close()
	g, err := lords.New()
	if err != nil {
		b.Fatal(err)
	}
	svc := play1.New(play1.Config{Games: engine.NewRegistry(g), Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret})
	if _, err := pool.Exec(ctx, `CREATE TABLE plain (id bigserial PRIMARY KEY, game text NOT NULL, data jsonb NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	const workers = 32
	d := 3 * time.Second
	insert := rate(workers, d, func(int, *rand.Rand) error {
		_, err := pool.Exec(ctx, `INSERT INTO plain (game, data) VALUES ($1, $2)`, "g", `{"seat":1,"card":42}`)
		return err
	})
	// Dropped, so that its autovacuum does not run during the moves.
	if _, err := pool.Exec(ctx, `DROP TABLE plain`); err != nil {
		b.Fatal(err)
	}
	games := make([]string, workers)
	moves := rate(workers, d, func(w int, rng *rand.Rand) error {
		for {
			if games[w] == "" {
				c, err := svc.Create(ctx, play1.CreateGame{Organiser: play1.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name, Players: []play1.NewPlayer{
					{Name: "A", Email: "a@example.org"}, {Name: "B", Email: "b@example.org"},
					{Name: "C", Email: "c@example.org"}, {Name: "D", Email: "d@example.org"}}})
				if err != nil {
					return err
				}
				games[w] = c.ID
			}
			sm, err := svc.Summary(ctx, games[w])
			if err != nil {
				return err
			}
			if sm.Status != projections.StatusActive {
				games[w] = ""
				continue
			}
			v, err := playtest.SeatView(ctx, svc, secret, games[w], sm.ToMove[0])
			if err != nil {
				return err
			}
			mv, _ := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
			_, err = svc.MoveAs(ctx, games[w], v.Seat, play1.MoveRequest{Version: v.Version, Move: play1.PostedMove(mv)})
			return err
		}
	})
	b.ReportMetric(insert, "inserts/s")
	b.ReportMetric(moves, "moves/s")
	b.ReportMetric(100*moves/insert, "%ofinsert")
}

func rate(workers int, d time.Duration, f func(w int, rng *rand.Rand) error) float64 {
	var n atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	stop := start.Add(d)
	var firstErr atomic.Value
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 3))
			for time.Now().Before(stop) {
				if err := f(w, rng); err != nil {
					firstErr.CompareAndSwap(nil, fmt.Sprint(err))
					return
				}
				n.Add(1)
			}
		}()
	}
	wg.Wait()
	if e := firstErr.Load(); e != nil {
		panic(e)
	}
	return float64(n.Load()) / time.Since(start).Seconds()
}
