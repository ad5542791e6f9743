package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	evpg "pbem/events/postgres"
	"pbem/migrations"
	"pbem/projections"
	ppg "pbem/projections/postgres"
)

// loadtest measures the server on loopback: it creates a scratch database
// on the PostgreSQL server of DATABASE_URL (dropped at the end), starts the
// API in this process, and
//
//  1. runs a plain single-row INSERT from -players goroutines for
//     -baseline, the reference rate;
//  2. plays games over HTTP with -players concurrent clients for
//     -duration, each posting random legal moves of its own games: moves/s
//     and the p50/p99 latency of POST /moves;
//  3. creates games up to -games active games and reports the process's
//     heap and RSS (clients included: they share the process).
//
// The collector is set as pbem serve sets it (see tuneGC).
func loadtest(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "loadtest")
	stdout := e.stdout
	players := fs.Int("players", 32, "concurrent players (HTTP clients)")
	duration := fs.Duration("duration", 20*time.Second, "how long to play")
	baseline := fs.Duration("baseline", 5*time.Second, "how long to run the plain INSERT baseline")
	total := fs.Int("games", 10000, "active games to create for the memory figure (0: skip)")
	game := fs.String("game", "lords-of-scotland", "the game to play")
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
	if _, ok := games[*game]; !ok {
		return fmt.Errorf("loadtest: unknown game %q", *game)
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
	svc := projections.New(projections.Config{Games: games, Store: store, Repo: ppg.New(pool), Secret: secret})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: api.New(api.Config{Service: svc}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // closed below
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "loadtest: %d players, %d CPUs, PostgreSQL %s\n", *players, runtime.NumCPU(), redactURL(dbURL))

	clock := cpuClock{pool: pool}
	c0 := clock.read(ctx)
	plain, inserts, err := plainInserts(ctx, pool, *players, *baseline)
	if err != nil {
		return err
	}
	c1 := clock.read(ctx)
	fmt.Fprintf(stdout, "plain INSERT:   %8.0f rows/s\n", plain)

	lt := &loadClient{base: base, secret: secret, game: *game, seats: *seats,
		http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *players * 2, MaxIdleConns: *players * 2}}}
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
		var active int
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM games WHERE status = 'active'`).Scan(&active); err != nil {
			return err
		}
		start := time.Now()
		if err := lt.createMany(ctx, *players, *total-active); err != nil {
			return err
		}
		created := time.Since(start)
		// Read every game once, so that a server keeping per-game memory would show it.
		if err := lt.readAll(ctx, pool, *players); err != nil {
			return err
		}
		if err := pool.QueryRow(ctx, `SELECT count(*) FROM games WHERE status = 'active'`).Scan(&active); err != nil {
			return err
		}
		lt.http.CloseIdleConnections()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		fmt.Fprintf(stdout, "memory:         %d active games (created in %s, each then read): heap in use %.1f MB, RSS %s (server and clients)\n",
			active, created.Round(time.Millisecond), float64(m.HeapInuse)/(1<<20), rss())
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

// loadClient plays games over HTTP.
type loadClient struct {
	base   string
	secret []byte
	game   string
	seats  int
	http   *http.Client
}

type playResult struct {
	moves, games, conflicts int
	elapsed                 time.Duration
	lat                     []time.Duration
}

func (r *playResult) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	i := int(p * float64(len(r.lat)-1))
	return r.lat[i]
}

// play runs n players for d, each on its own games.
func (lt *loadClient) play(ctx context.Context, n int, d time.Duration) (*playResult, error) {
	res := &playResult{}
	var mu sync.Mutex
	var firstErr error
	start := time.Now()
	stop := start.Add(d)
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := mrand.New(mrand.NewPCG(uint64(w), 1))
			var lat []time.Duration
			moves, games, conflicts := 0, 0, 0
			err := func() error {
				for time.Now().Before(stop) {
					id, err := lt.create()
					if err != nil {
						return err
					}
					games++
					var cur *loadView
					for time.Now().Before(stop) {
						next, done, conflict, took, err := lt.step(id, cur, rng)
						if err != nil {
							return err
						}
						cur = next
						if conflict {
							conflicts++
							continue
						}
						if done {
							break
						}
						moves++
						lat = append(lat, took)
					}
				}
				return nil
			}()
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			res.moves += moves
			res.games += games
			res.conflicts += conflicts
			res.lat = append(res.lat, lat...)
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	slices.Sort(res.lat)
	return res, firstErr
}

var loadNames = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"}

func (lt *loadClient) create() (string, error) {
	var players []map[string]string
	for i := range lt.seats {
		players = append(players, map[string]string{"name": loadNames[i%len(loadNames)] + fmt.Sprint(i), "email": fmt.Sprintf("p%d@example.org", i)})
	}
	var out struct {
		ID string `json:"id"`
	}
	st, err := lt.do("POST", "/api/v1/games", "", map[string]any{"game": lt.game, "players": players}, &out)
	if err != nil {
		return "", err
	}
	if st != http.StatusCreated {
		return "", fmt.Errorf("loadtest: create: status %d", st)
	}
	return out.ID, nil
}

// createMany creates count games from n goroutines.
func (lt *loadClient) createMany(ctx context.Context, n, count int) error {
	return parallel(ctx, n, count, func(int) error {
		_, err := lt.create()
		return err
	})
}

// parallel runs job(0..count-1) on n goroutines until all are done, one
// fails (its error is returned, and the others stop taking jobs) or ctx ends.
func parallel(ctx context.Context, n, count int, job func(i int) error) error {
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(count) && ctx.Err() == nil && firstErr.Load() == nil; i = next.Add(1) - 1 {
				if err := job(int(i)); err != nil {
					firstErr.CompareAndSwap(nil, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err, _ := firstErr.Load().(error); err != nil {
		return err
	}
	return ctx.Err()
}

// loadView is what a player keeps of its view between moves.
type loadView struct {
	Seat       int               `json:"seat"`
	Version    int64             `json:"version"`
	Status     string            `json:"status"`
	ToMove     []int             `json:"to_move"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
}

// decode reads the fields of a loadView from a view or a summary, and stops
// reading as soon as it has all of them: a view lists them before its
// state, which a player of random moves need not decode.
func (v *loadView) decode(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("loadtest: not a JSON object (%v)", err)
	}
	seen := 0
	for seen < 5 && dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var dst any
		switch t {
		case "seat":
			dst = &v.Seat
		case "version":
			dst = &v.Version
		case "status":
			dst = &v.Status
		case "to_move":
			dst = &v.ToMove
		case "legal_moves":
			dst = &v.LegalMoves
		default:
			dst = new(json.RawMessage)
			seen-- // not one of ours
		}
		if err := dec.Decode(dst); err != nil {
			return err
		}
		seen++
	}
	return nil
}

// readAll reads every game's summary and seat 0's view over HTTP, from n
// goroutines.
func (lt *loadClient) readAll(ctx context.Context, pool *pgxpool.Pool, n int) error {
	rows, err := pool.Query(ctx, `SELECT id FROM games`)
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	return parallel(ctx, n, len(ids), func(i int) error {
		id := ids[i]
		if st, err := lt.do("GET", "/api/v1/games/"+id, "", nil, nil); err != nil || st != http.StatusOK {
			return fmt.Errorf("loadtest: summary of %s: %d %v", id, st, err)
		}
		if st, err := lt.do("GET", "/api/v1/games/"+id+"/view", projections.SeatToken(lt.secret, id, 0, 0), nil, nil); err != nil || st != http.StatusOK {
			return fmt.Errorf("loadtest: view of %s: %d %v", id, st, err)
		}
		return nil
	})
}

// step plays one random legal move of game id, as a client that keeps the
// answer of its last move: it reads a view only when another seat is to
// move. cur is the last view (nil at the start). done: the game is over.
func (lt *loadClient) step(id string, cur *loadView, rng *mrand.Rand) (next *loadView, done, conflict bool, took time.Duration, err error) {
	if cur == nil {
		cur = &loadView{Seat: -1}
		if _, err := lt.do("GET", "/api/v1/games/"+id, "", nil, cur); err != nil {
			return nil, false, false, 0, err
		}
		cur.Seat = -1
	}
	if cur.Status != "active" || len(cur.ToMove) == 0 {
		return cur, true, false, 0, nil
	}
	seat := cur.ToMove[rng.IntN(len(cur.ToMove))]
	tok := projections.SeatToken(lt.secret, id, seat, 0)
	if seat != cur.Seat {
		cur = &loadView{}
		if st, err := lt.do("GET", "/api/v1/games/"+id+"/view", tok, nil, cur); err != nil || st != 200 {
			return nil, false, false, 0, fmt.Errorf("loadtest: view: %d %v", st, err)
		}
	}
	if len(cur.LegalMoves) == 0 {
		return nil, false, false, 0, fmt.Errorf("loadtest: game %s seat %d has no legal move", id, seat)
	}
	// The move is sent as the view listed it (the server checks it).
	body := fmt.Appendf(nil, `{"version":%d,"move":`, cur.Version)
	body = append(append(body, cur.LegalMoves[rng.IntN(len(cur.LegalMoves))]...), '}')
	next = &loadView{}
	t0 := time.Now()
	st, err := lt.do("POST", "/api/v1/games/"+id+"/moves", tok, body, next)
	took = time.Since(t0)
	if err != nil {
		return nil, false, false, 0, err
	}
	switch st {
	case http.StatusOK:
		return next, false, false, took, nil
	case http.StatusConflict:
		return nil, false, true, took, nil
	}
	return nil, false, false, 0, fmt.Errorf("loadtest: move in %s: status %d", id, st)
}

func (lt *loadClient) do(method, path, token string, body, out any) (int, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte: // already JSON
		rd = bytes.NewReader(b)
	default:
		b2, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b2)
	}
	req, err := http.NewRequest(method, lt.base+path, rd)
	if err != nil {
		return 0, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := lt.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if out != nil && resp.StatusCode < 300 {
		var err error
		if v, ok := out.(*loadView); ok {
			err = v.decode(data)
		} else {
			err = json.Unmarshal(data, out)
		}
		if err != nil {
			return resp.StatusCode, fmt.Errorf("loadtest: %s %s: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}
