package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
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
	fmt.Fprintf(stdout, "loadtest: %d players, %d CPUs, PostgreSQL %s\n", *players, runtime.NumCPU(), redactURL(dbURL))

	clock := cpuClock{pool: pool}
	c0 := clock.read(ctx)
	plain, inserts, err := plainInserts(ctx, pool, *players, *baseline)
	if err != nil {
		return err
	}
	c1 := clock.read(ctx)
	fmt.Fprintf(stdout, "plain INSERT:   %8.0f rows/s\n", plain)

	lt, err := newLoadClient(ln.Addr().String(), secret, *game, *seats)
	if err != nil {
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
	addr       string // host:port of the API
	secret     []byte
	game       string
	seats      int
	createBody []byte // the body of POST /api/v1/games, the same for every game
}

var loadNames = []string{"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"}

// newLoadClient returns a client of the API at addr that plays game with
// seats players.
func newLoadClient(addr string, secret []byte, game string, seats int) (*loadClient, error) {
	var players []map[string]string
	for i := range seats {
		players = append(players, map[string]string{"name": loadNames[i%len(loadNames)] + fmt.Sprint(i), "email": fmt.Sprintf("p%d@example.org", i)})
	}
	body, err := json.Marshal(map[string]any{"game": game, "players": players})
	if err != nil {
		return nil, err
	}
	return &loadClient{addr: addr, secret: secret, game: game, seats: seats, createBody: body}, nil
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
			p := &loadPlayer{lt: lt, conn: newLoadConn(lt.addr), rng: mrand.New(mrand.NewPCG(uint64(w), 1))}
			defer p.conn.Close()
			var lat []time.Duration
			moves, games, conflicts := 0, 0, 0
			err := func() error {
				for time.Now().Before(stop) {
					id, err := lt.newGame(p.conn)
					if err != nil {
						return err
					}
					games++
					p.start(id)
					for time.Now().Before(stop) {
						done, conflict, took, err := p.step()
						if err != nil {
							return err
						}
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

// newGame creates a game over c and returns its id.
func (lt *loadClient) newGame(c *loadConn) (string, error) {
	st, body, err := c.do("POST", "/api/v1/games", "", lt.createBody)
	if err != nil {
		return "", err
	}
	if st != http.StatusCreated {
		return "", fmt.Errorf("loadtest: create: status %d", st)
	}
	id, err := jsonStringField(body, "id")
	if err != nil {
		return "", fmt.Errorf("loadtest: create: %w", err)
	}
	return id, nil
}

// createMany creates count games from n goroutines.
func (lt *loadClient) createMany(ctx context.Context, n, count int) error {
	conns := lt.conns(n)
	defer closeAll(conns)
	return parallel(ctx, n, count, func(w, _ int) error {
		_, err := lt.newGame(conns[w])
		return err
	})
}

// conns returns n clients of the API, one per worker.
func (lt *loadClient) conns(n int) []*loadConn {
	cs := make([]*loadConn, n)
	for i := range cs {
		cs[i] = newLoadConn(lt.addr)
	}
	return cs
}

func closeAll(cs []*loadConn) {
	for _, c := range cs {
		c.Close()
	}
}

// parallel runs job(w, 0..count-1) on n goroutines (w: the goroutine's
// number, 0..n-1) until all are done, one fails (its error is returned,
// and the others stop taking jobs) or ctx ends.
func parallel(ctx context.Context, n, count int, job func(w, i int) error) error {
	var next atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(count) && ctx.Err() == nil && firstErr.Load() == nil; i = next.Add(1) - 1 {
				if err := job(w, int(i)); err != nil {
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
	conns := lt.conns(n)
	defer closeAll(conns)
	return parallel(ctx, n, len(ids), func(w, i int) error {
		id, c := ids[i], conns[w]
		if st, _, err := c.do("GET", "/api/v1/games/"+id, "", nil); err != nil || st != http.StatusOK {
			return fmt.Errorf("loadtest: summary of %s: %d %v", id, st, err)
		}
		if st, _, err := c.do("GET", "/api/v1/games/"+id+"/view", projections.SeatToken(lt.secret, id, 0, 0), nil); err != nil || st != http.StatusOK {
			return fmt.Errorf("loadtest: view of %s: %d %v", id, st, err)
		}
		return nil
	})
}

// loadPlayer is one player goroutine: its connection, its random choices,
// and what it keeps of the game it plays, reused from move to move.
type loadPlayer struct {
	lt   *loadClient
	conn *loadConn
	rng  *mrand.Rand

	id                         string   // the game played
	summary, viewPath, mvsPath string   // its URL paths
	tokens                     []string // its seat tokens, by seat ("": not derived yet)
	view                       loadView // the last view or summary read
	has                        bool     // view holds the game's current view (else: read the summary)
	body                       []byte   // the move being posted
}

// start makes the player play game id from its next step.
func (p *loadPlayer) start(id string) {
	p.id, p.has = id, false
	p.summary = "/api/v1/games/" + id
	p.viewPath, p.mvsPath = p.summary+"/view", p.summary+"/moves"
	p.tokens = slices.Grow(p.tokens[:0], p.lt.seats)[:p.lt.seats]
	clear(p.tokens)
}

// token returns the play-link token of seat.
func (p *loadPlayer) token(seat int) string {
	if seat >= 0 && seat < len(p.tokens) {
		if p.tokens[seat] == "" {
			p.tokens[seat] = projections.SeatToken(p.lt.secret, p.id, seat, 0)
		}
		return p.tokens[seat]
	}
	return projections.SeatToken(p.lt.secret, p.id, seat, 0)
}

// step plays one random legal move of the player's game, as a client that
// keeps the answer of its last move: it reads a view only when another
// seat is to move (or after a conflict, the summary first). done: the
// game is over. conflict: the move was refused as stale.
func (p *loadPlayer) step() (done, conflict bool, took time.Duration, err error) {
	cur := &p.view
	if !p.has {
		cur.reset()
		cur.Seat = -1
		st, body, err := p.conn.do("GET", p.summary, "", nil)
		if err != nil {
			return false, false, 0, err
		}
		if st < 300 {
			if err := cur.decode(body); err != nil {
				return false, false, 0, fmt.Errorf("loadtest: GET %s: %w", p.summary, err)
			}
		}
		cur.Seat = -1
		p.has = true
	}
	if cur.Status != "active" || len(cur.ToMove) == 0 {
		return true, false, 0, nil
	}
	seat := cur.ToMove[p.rng.IntN(len(cur.ToMove))]
	tok := p.token(seat)
	if seat != cur.Seat {
		cur.reset()
		st, body, err := p.conn.do("GET", p.viewPath, tok, nil)
		if err == nil && st < 300 {
			if err = cur.decode(body); err != nil {
				err = fmt.Errorf("loadtest: GET %s: %w", p.viewPath, err)
			}
		}
		if err != nil || st != 200 {
			p.has = false
			return false, false, 0, fmt.Errorf("loadtest: view: %d %v", st, err)
		}
	}
	if len(cur.LegalMoves) == 0 {
		return false, false, 0, fmt.Errorf("loadtest: game %s seat %d has no legal move", p.id, seat)
	}
	// The move is sent as the view listed it (the server checks it).
	p.body = strconv.AppendInt(append(p.body[:0], `{"version":`...), cur.Version, 10)
	p.body = append(append(p.body, `,"move":`...), cur.LegalMoves[p.rng.IntN(len(cur.LegalMoves))]...)
	p.body = append(p.body, '}')
	t0 := time.Now()
	st, body, err := p.conn.do("POST", p.mvsPath, tok, p.body)
	took = time.Since(t0)
	p.has = false
	if err != nil {
		return false, false, 0, err
	}
	switch st {
	case http.StatusOK:
		cur.reset()
		if err := cur.decode(body); err != nil {
			return false, false, 0, fmt.Errorf("loadtest: POST %s: %w", p.mvsPath, err)
		}
		p.has = true
		return false, false, took, nil
	case http.StatusConflict:
		return false, true, took, nil
	}
	return false, false, 0, fmt.Errorf("loadtest: move in %s: status %d", p.id, st)
}

// loadView is what a player keeps of its view between moves.
type loadView struct {
	Seat       int               `json:"seat"`
	Version    int64             `json:"version"`
	Status     string            `json:"status"`
	ToMove     []int             `json:"to_move"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
	raw        []byte            // LegalMoves' bytes: a view owns them
}

// reset clears the view for another decode, keeping its buffers.
func (v *loadView) reset() {
	*v = loadView{ToMove: v.ToMove[:0], LegalMoves: v.LegalMoves[:0], raw: v.raw[:0]}
}

// decode reads the fields of a loadView from a view or a summary, as
// json.Unmarshal would, and stops reading as soon as it has all of them: a
// view lists them before its state, which a player of random moves need
// not decode. Fields may come in any order (what comes before the last of
// them is scanned, and its syntax checked); absent fields are left as they
// are; data must be an object (not even null). The legal moves are
// copied: data may be reused after decode.
func (v *loadView) decode(data []byte) error {
	const all = 1<<5 - 1
	seen := 0
	return jsonMembers(data, func(key, val []byte) (bool, error) {
		switch string(key) {
		case "seat":
			n, null, err := jsonInt("seat", val)
			if err != nil {
				return false, err
			}
			if !null {
				v.Seat = int(n)
			}
			seen |= 1
		case "version":
			n, null, err := jsonInt("version", val)
			if err != nil {
				return false, err
			}
			if !null {
				v.Version = n
			}
			seen |= 2
		case "status":
			if err := jsonString("status", val, &v.Status); err != nil {
				return false, err
			}
			seen |= 4
		case "to_move":
			if val[0] == 'n' {
				v.ToMove = nil
			} else if val[0] != '[' {
				return false, fmt.Errorf("loadtest: to_move: %.40s is not an array", val)
			} else {
				v.ToMove = v.ToMove[:0]
				if v.ToMove == nil {
					v.ToMove = make([]int, 0, 4)
				}
				err := jsonElems(val, func(e []byte) error {
					n, _, err := jsonInt("to_move", e)
					v.ToMove = append(v.ToMove, int(n))
					return err
				})
				if err != nil {
					return false, err
				}
			}
			seen |= 8
		case "legal_moves":
			if val[0] == 'n' {
				v.LegalMoves = nil
			} else if val[0] != '[' {
				return false, fmt.Errorf("loadtest: legal_moves: %.40s is not an array", val)
			} else {
				v.raw = append(v.raw[:0], val...)
				v.LegalMoves = v.LegalMoves[:0]
				if v.LegalMoves == nil {
					v.LegalMoves = make([]json.RawMessage, 0, 16)
				}
				err := jsonElems(v.raw, func(e []byte) error {
					v.LegalMoves = append(v.LegalMoves, e)
					return nil
				})
				if err != nil {
					return false, err
				}
			}
			seen |= 16
		}
		return seen == all, nil
	})
}

// jsonStringField returns the string member key of the JSON object data.
func jsonStringField(data []byte, key string) (string, error) {
	var s string
	found := false
	err := jsonMembers(data, func(k, val []byte) (bool, error) {
		if string(k) != key {
			return false, nil
		}
		found = true
		return true, jsonString(key, val, &s)
	})
	if err == nil && !found {
		err = fmt.Errorf("loadtest: no %q in the answer", key)
	}
	return s, err
}

// jsonInt reads an integer member (a JSON value already checked by
// jsonScan) named field; null: it is null.
func jsonInt(field string, val []byte) (n int64, null bool, err error) {
	if string(val) == "null" {
		return 0, true, nil
	}
	n, err = strconv.ParseInt(string(val), 10, 64)
	if err != nil {
		return 0, false, fmt.Errorf("loadtest: %s: %.40s is not an integer", field, val)
	}
	return n, false, nil
}

// jsonString reads a string member (a JSON value already checked by
// jsonScan) named field into *dst, which null leaves as it is. It
// allocates only for a string that is neither *dst nor a game status.
func jsonString(field string, val []byte, dst *string) error {
	switch {
	case string(val) == "null":
		return nil
	case val[0] != '"':
		return fmt.Errorf("loadtest: %s: %.40s is not a string", field, val)
	case bytes.IndexByte(val, '\\') >= 0:
		return json.Unmarshal(val, dst)
	}
	switch s := val[1 : len(val)-1]; string(s) {
	case *dst:
	case "active": // the statuses a load client reads again and again
		*dst = "active"
	case "finished":
		*dst = "finished"
	default:
		*dst = string(s)
	}
	return nil
}

// jsonMaxDepth is the deepest nesting jsonScan reads (as encoding/json).
const jsonMaxDepth = 10000

// jsonScan reads JSON text from data at i, checking its syntax as it goes
// (not the UTF-8 of strings, which encoding/json does not reject either).
type jsonScan struct {
	data []byte
	i    int
}

func (s *jsonScan) fail(what string) error {
	return fmt.Errorf("loadtest: malformed JSON: %s at byte %d", what, s.i)
}

// ws skips white space.
func (s *jsonScan) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// jsonMembers calls f with each member of the JSON object data, in order:
// its key (unescaped) and its value (as written), until f returns stop or
// an error, or the object ends.
func jsonMembers(data []byte, f func(key, val []byte) (stop bool, err error)) error {
	s := jsonScan{data: data}
	s.ws()
	if s.i >= len(data) || data[s.i] != '{' {
		return errors.New("loadtest: not a JSON object")
	}
	s.i++
	s.ws()
	if s.i < len(data) && data[s.i] == '}' {
		s.i++
		return s.end()
	}
	for {
		s.ws()
		at := s.i
		key, esc, err := s.str()
		if err != nil {
			return err
		}
		if esc {
			var k string
			if err := json.Unmarshal(data[at:s.i], &k); err != nil {
				return fmt.Errorf("loadtest: malformed JSON: %w", err)
			}
			key = []byte(k)
		}
		s.ws()
		if s.i >= len(data) || data[s.i] != ':' {
			return s.fail("expected ':'")
		}
		s.i++
		s.ws()
		at = s.i
		if err := s.value(1); err != nil {
			return err
		}
		if stop, err := f(key, data[at:s.i]); stop || err != nil {
			return err
		}
		s.ws()
		if s.i >= len(data) {
			return s.fail("unexpected end")
		}
		switch data[s.i] {
		case ',':
			s.i++
		case '}':
			s.i++
			return s.end()
		default:
			return s.fail("expected ',' or '}'")
		}
	}
}

// jsonElems calls f with each element of the JSON array val, as written.
func jsonElems(val []byte, f func(elem []byte) error) error {
	s := jsonScan{data: val}
	s.ws()
	if s.i >= len(val) || val[s.i] != '[' {
		return errors.New("loadtest: not a JSON array")
	}
	s.i++
	s.ws()
	if s.i < len(val) && val[s.i] == ']' {
		return nil
	}
	for {
		s.ws()
		at := s.i
		if err := s.value(1); err != nil {
			return err
		}
		if err := f(val[at:s.i]); err != nil {
			return err
		}
		s.ws()
		if s.i >= len(val) {
			return s.fail("unexpected end")
		}
		switch val[s.i] {
		case ',':
			s.i++
		case ']':
			return nil
		default:
			return s.fail("expected ',' or ']'")
		}
	}
}

// end checks that only white space follows.
func (s *jsonScan) end() error {
	s.ws()
	if s.i != len(s.data) {
		return s.fail("data after the value")
	}
	return nil
}

// value skips one value at s.i; depth is its nesting.
func (s *jsonScan) value(depth int) error {
	s.ws()
	if s.i >= len(s.data) {
		return s.fail("unexpected end")
	}
	switch c := s.data[s.i]; {
	case c == '"':
		_, _, err := s.str()
		return err
	case c == '{' || c == '[':
		if depth > jsonMaxDepth {
			return s.fail("nesting too deep")
		}
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		s.i++
		s.ws()
		if s.i < len(s.data) && s.data[s.i] == closer {
			s.i++
			return nil
		}
		for {
			if c == '{' {
				s.ws()
				if _, _, err := s.str(); err != nil {
					return err
				}
				s.ws()
				if s.i >= len(s.data) || s.data[s.i] != ':' {
					return s.fail("expected ':'")
				}
				s.i++
			}
			if err := s.value(depth + 1); err != nil {
				return err
			}
			s.ws()
			if s.i >= len(s.data) {
				return s.fail("unexpected end")
			}
			switch s.data[s.i] {
			case ',':
				s.i++
			case closer:
				s.i++
				return nil
			default:
				return s.fail("expected ',' or a closing bracket")
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if bytes.HasPrefix(s.data[s.i:], []byte(lit)) {
			s.i += len(lit)
			return nil
		}
	}
	return s.fail("unexpected character")
}

// str reads a string at s.i (its opening quote) and returns its contents as
// written; esc: they hold escapes.
func (s *jsonScan) str() (raw []byte, esc bool, err error) {
	if s.i >= len(s.data) || s.data[s.i] != '"' {
		return nil, false, s.fail("expected a string")
	}
	d := s.data
	for i := s.i + 1; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			raw = d[s.i+1 : i]
			s.i = i + 1
			return raw, esc, nil
		case c == '\\':
			esc = true
			i++
			if i >= len(d) {
				break
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) || !isHex4(d[i+1:i+5]) {
					s.i = i
					return nil, false, s.fail(`bad \u escape`)
				}
				i += 4
			default:
				s.i = i
				return nil, false, s.fail("bad escape")
			}
		case c < 0x20:
			s.i = i
			return nil, false, s.fail("control character in a string")
		}
	}
	s.i = len(d)
	return nil, false, s.fail("unterminated string")
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// number reads a number at s.i.
func (s *jsonScan) number() error {
	d, i := s.data, s.i
	digits := func() bool {
		at := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		return i > at
	}
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits():
		s.i = i
		return s.fail("bad number")
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits() {
			s.i = i
			return s.fail("bad number")
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits() {
			s.i = i
			return s.fail("bad number")
		}
	}
	s.i = i
	return nil
}
