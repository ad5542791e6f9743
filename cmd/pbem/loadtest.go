package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/events/game"
	evpg "pbem/events/postgres"
	"pbem/migrations"
	ppg "pbem/projections/postgres"
)

// loadtest measures the server on loopback: it creates a scratch database
// on the PostgreSQL server of DATABASE_URL (dropped at the end), starts the
// API in this process, and
//
//  1. runs a plain single-row INSERT from -players goroutines for
//     -baseline, the reference rate, then drops its table (so that its
//     autovacuum does not run during the play);
//  2. creates -games active games over HTTP and analyzes the tables, so
//     that the play meets a database in service: planner statistics, and
//     tables large enough that their first cached plans use the indexes;
//  3. plays games over HTTP with -players concurrent clients for
//     -duration, each posting random legal moves of its own games: moves/s
//     and the p50/p99 latency of POST /moves;
//  4. reads every game once and reports the process's heap and RSS
//     (clients included: they share the process).
//
// The collector is set as pbem serve sets it (see tuneGC).
func loadtest(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "loadtest")
	stdout := e.stdout
	players := fs.Int("players", 32, "concurrent players (HTTP clients)")
	duration := fs.Duration("duration", 20*time.Second, "how long to play")
	baseline := fs.Duration("baseline", 5*time.Second, "how long to run the plain INSERT baseline")
	total := fs.Int("games", 10000, "active games to create before the play, then read for the memory figure (0: none)")
	gameName := fs.String("game", "lords-of-scotland", "the game to play")
	seats := fs.Int("seats", 4, "players per game")
	genericPlans := fs.Bool("generic-plans", false, "plan_cache_mode=force_generic_plan on the server's connections")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the play phase to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	games, err := gameRegistry()
	if err != nil {
		return err
	}
	if _, ok := games[*gameName]; !ok {
		return fmt.Errorf("loadtest: unknown game %q", *gameName)
	}
	if *players < 1 || *seats < 1 {
		return errors.New("loadtest: -players and -seats must be positive")
	}
	tuneGC(e.getenv) // as pbem serve does
	db, err := openDatabase(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	dbURL, drop, err := scratchDB(ctx, db.URL)
	if err != nil {
		return err
	}
	defer drop()
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return err
	}
	cfg.MaxConns = int32(*players + 8)
	if *genericPlans {
		cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	store := evpg.New(pool)
	defer store.Close()
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	svc := game.New(game.Config{Games: games, Store: store, Repo: ppg.New(pool), Secret: secret})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: api.New(api.Config{Service: svc, Limits: noLimits}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // closed below
	defer srv.Close()
	fmt.Fprintf(stdout, "loadtest: %d players, %d CPUs, PostgreSQL %s\n", *players, runtime.NumCPU(), redactURL(dbURL))

	clock := cpuClock{pool: pool}
	c0 := clock.read(ctx)
	plain, inserts, err := plainInserts(ctx, pool, *players, *baseline)
	if err != nil {
		return err
	}
	c1 := clock.read(ctx)
	fmt.Fprintf(stdout, "plain INSERT:   %8.0f rows/s\n", plain)
	if _, err := pool.Exec(ctx, `DROP TABLE plain_insert`); err != nil {
		return err
	}

	lt, err := newLoadClient(ln.Addr().String(), secret, *gameName, *seats)
	if err != nil {
		return err
	}
	start := time.Now()
	if err := lt.createMany(ctx, *players, *total); err != nil {
		return err
	}
	created := time.Since(start)
	if _, err := pool.Exec(ctx, `ANALYZE`); err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	c2 := clock.read(ctx)
	res, err := lt.play(ctx, *players, *duration)
	if *cpuprofile != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		return err
	}
	c3 := clock.read(ctx)
	rate := float64(res.moves) / res.elapsed.Seconds()
	fmt.Fprintf(stdout, "moves:          %8.0f moves/s (%d moves, %d games, %d conflicts) = %.0f%% of plain INSERT\n",
		rate, res.moves, res.games, res.conflicts, 100*rate/plain)
	fmt.Fprintf(stdout, "POST /moves:    p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", ms(res.pct(0.50)), ms(res.pct(0.99)), ms(res.pct(1)))
	fmt.Fprintf(stdout, "CPU per INSERT: %s\n", perOp(c0, c1, inserts))
	fmt.Fprintf(stdout, "CPU per move:   %s (views, creations and clients included)\n", perOp(c2, c3, res.moves))

	if *total > 0 {
		// Read every game once, so that a server keeping per-game memory would show it.
		if err := lt.readAll(ctx, pool, *players); err != nil {
			return err
		}
		var active int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM games WHERE status = 'active'`).Scan(&active); err != nil {
			return err
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		fmt.Fprintf(stdout, "memory:         %d active games (%d created in %s before the play, all then read): heap in use %.1f MB, RSS %s (server and clients)\n",
			active, *total, created.Round(time.Millisecond), float64(m.HeapInuse)/(1<<20), rss())
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// rss reads the process's resident set size from /proc (Linux).
func rss() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

// scratchDB creates a fresh migrated database next to databaseURL's and
// returns its URL and a function that drops it.
func scratchDB(ctx context.Context, databaseURL string) (string, func(), error) {
	admin, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return "", nil, fmt.Errorf("loadtest: connect: %w", err)
	}
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	name := "pbem_load_" + hex.EncodeToString(b)
	_, err = admin.Exec(ctx, "CREATE DATABASE "+name)
	admin.Close(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("loadtest: create database: %w", err)
	}
	drop := func() {
		c, err := pgx.Connect(context.Background(), databaseURL)
		if err != nil {
			return
		}
		defer c.Close(context.Background())
		_, _ = c.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	}
	u, err := url.Parse(databaseURL)
	if err != nil {
		drop()
		return "", nil, err
	}
	u.Path = "/" + name
	if err := migrations.Up(u.String()); err != nil {
		drop()
		return "", nil, err
	}
	return u.String(), drop, nil
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "?"
	}
	return u.Redacted()
}

// plainInserts runs single-row INSERTs (each its own transaction) from n
// goroutines for d and returns the rows per second and the row count.
func plainInserts(ctx context.Context, pool *pgxpool.Pool, n int, d time.Duration) (float64, int, error) {
	if _, err := pool.Exec(ctx, `CREATE TABLE plain_insert (id bigserial PRIMARY KEY, game text NOT NULL,
		data jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return 0, 0, err
	}
	var count atomic.Int64
	var firstErr atomic.Value
	start := time.Now()
	stop := start.Add(d)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				if _, err := pool.Exec(ctx, `INSERT INTO plain_insert (game, data) VALUES ($1, $2)`,
					"g", `{"seat":1,"card":42}`); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
				count.Add(1)
			}
		}()
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return 0, 0, err
	}
	return float64(count.Load()) / time.Since(start).Seconds(), int(count.Load()), nil
}

// noLimits switches the rate limits off: the load test creates thousands
// of games from one address.
var noLimits = api.Limits{GamesPerHourAddress: -1, GamesPerHourIP: -1, InvitationsPerDayAddress: -1,
	InvitationsPerDayIP: -1, SigninsPerHour: -1}
