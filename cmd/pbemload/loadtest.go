package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/cmd/internal/pgcluster"
	"pbem/cmd/internal/wiring"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	ppg "pbem/projections/postgres"
)

// loadtest measures the server on loopback: it creates a scratch database
// on the PostgreSQL server that pbem would use (dropped at the end), starts
// the API in this process, and
//
//  1. runs a plain single-row INSERT from o.players goroutines for
//     o.baseline, the reference rate, then drops its table (so that its
//     autovacuum does not run during the play);
//  2. creates o.games active games over HTTP and analyzes the tables, so
//     that the play meets a database in service: planner statistics, and
//     tables large enough that their first cached plans use the indexes;
//  3. plays games over HTTP with o.players concurrent clients for
//     o.duration, each posting random legal moves of its own games: moves/s
//     and the p50/p99 latency of POST /moves;
//  4. reads every game once and reports the process's heap and RSS
//     (clients included: they share the process).
//
// The collector is set as pbem serve sets it (wiring.TuneGC).
func loadtest(ctx context.Context, o options, stdout, stderr io.Writer) error {
	if o.url != "" {
		return remoteLoadtest(ctx, o, stdout)
	}
	games, err := wiring.Games()
	if err != nil {
		return err
	}
	if _, ok := games[o.game]; !ok {
		return fmt.Errorf("unknown game %q", o.game)
	}
	if o.players < 1 || o.seats < 1 {
		return errors.New("-players and -seats must be positive")
	}
	wiring.TuneGC(o.gogc, o.gomemlimit) // as pbem serve does
	srv, err := pgcluster.Open(ctx, pgcluster.Options{DatabaseURL: o.databaseURL, DataDir: o.dataDir, Install: true, Log: stderr})
	if err != nil {
		return err
	}
	defer srv.Close(context.Background()) //nolint:errcheck // nothing to do about it at the end
	dbURL := o.db
	if dbURL == "" {
		var drop func() error
		if dbURL, drop, err = pgtest.Scratch(ctx, srv.AdminURL, "pbem_load_", true); err != nil {
			return err
		}
		defer drop() //nolint:errcheck // a database left behind is named pbem_load_*

	}
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return err
	}
	cfg.MaxConns = int32(o.players + 8)
	if o.genericPlans {
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
	// The emails of a move wait the grace pbem serve gives them by default
	// (PBEM_MAIL_GRACE unset): a your-turn email is then owed by the games
	// row until it is due, as on a server, where with none (the zero
	// Config) the move writes it to the outbox at once.
	svc := play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret,
		MailGrace: wiring.DefaultMailGrace})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	server := &http.Server{Handler: api.New(api.Config{Service: svc, Limits: noLimits}), ReadHeaderTimeout: 10 * time.Second}
	go server.Serve(api.OneWrite(ln)) //nolint:errcheck // closed below
	defer server.Close()
	fmt.Fprintf(stdout, "loadtest: %d players, %d CPUs, PostgreSQL %s\n", o.players, runtime.NumCPU(), redactURL(dbURL))

	clock := cpuClock{pool: pool}
	c0 := clock.read(ctx)
	plain, inserts, err := plainInserts(ctx, pool, o.players, o.baseline)
	if err != nil {
		return err
	}
	c1 := clock.read(ctx)
	fmt.Fprintf(stdout, "plain INSERT:   %8.0f rows/s\n", plain)
	if _, err := pool.Exec(ctx, `DROP TABLE plain_insert`); err != nil {
		return err
	}

	lc, err := newLoadClient("http://"+ln.Addr().String(), secret, o.game, o.seats, o.players)
	if err != nil {
		return err
	}
	defer lc.close()
	start := time.Now()
	if err := lc.createMany(ctx, o.players, o.games); err != nil {
		return err
	}
	created := time.Since(start)
	if _, err := pool.Exec(ctx, `ANALYZE`); err != nil {
		return err
	}
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
	}
	c2 := clock.read(ctx)
	res, err := lc.play(ctx, o.players, o.duration, o.minMoves)
	if o.cpuprofile != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		return err
	}
	c3 := clock.read(ctx)
	report(stdout, res, plain, c2, c3)
	fmt.Fprintf(stdout, "CPU per INSERT: %s\n", perOp(c0, c1, inserts))
	fmt.Fprintf(stdout, "CPU per move:   %s (views, creations and clients included)\n", perOp(c2, c3, res.moves))

	if o.games > 0 {
		// Read every game once, so that a server keeping per-game memory would show it.
		active, err := lc.readAll(ctx, o.players)
		if err != nil {
			return err
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		fmt.Fprintf(stdout, "memory:         %d active games (%d created in %s before the play, all then read): heap in use %.1f MB, RSS %s (server and clients)\n",
			active, o.games, created.Round(time.Millisecond), float64(m.HeapInuse)/(1<<20), rss())
	}
	return nil
}

// report prints the play's rate and latencies; plain is the plain INSERT
// rate the moves are compared with (none when 0).
func report(stdout io.Writer, res *playResult, plain float64, before, after cpuReading) {
	rate := float64(res.moves) / res.elapsed.Seconds()
	fmt.Fprintf(stdout, "moves:          %8.0f moves/s (%d moves, %d games, %d conflicts)", rate, res.moves, res.games, res.conflicts)
	if plain > 0 {
		fmt.Fprintf(stdout, " = %.0f%% of plain INSERT", 100*rate/plain)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "POST /moves:    p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", ms(pct(res.lat, 0.50)), ms(pct(res.lat, 0.99)), ms(pct(res.lat, 1)))
	fmt.Fprintf(stdout, "GET /view:      p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d views)\n",
		ms(pct(res.viewLat, 0.50)), ms(pct(res.viewLat, 0.99)), ms(pct(res.viewLat, 1)), len(res.viewLat))
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

// noLimits switches the rate limits off: the load test creates thousands
// of games from one address and one IP.
var noLimits = api.Limits{GamesPerHourAddress: -1, GamesPerHourIP: -1, InvitationsPerDayAddress: -1,
	InvitationsPerDayIP: -1, SigninsPerHour: -1, MailsPerHourRecipient: -1}
