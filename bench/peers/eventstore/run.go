package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/bench/internal/pgmeter"
	"pbem/events"
	"pbem/events/postgres"
	"pbem/migrations"
)

type config struct {
	url     string
	phase   time.Duration
	rounds  int
	writers []int
	systems []string
	install string
}

// Result is one system's figures at one writer count, summed over rounds.
type Result struct {
	Writers  int       `json:"writers"`
	System   string    `json:"system"`
	Events   int64     `json:"events"`
	Seconds  float64   `json:"seconds"`
	Rate     float64   `json:"events_per_s"`
	Rates    []float64 `json:"rates_per_round"`
	ClientUS float64   `json:"client_cpu_us_per_event"`
	PGUS     float64   `json:"pg_cpu_us_per_event"`
	WAL      float64   `json:"wal_bytes_per_event"`
}

// data and meta are a typical move event (as BenchmarkAppend's).
var data = []byte(`{"seat":2,"move":{"kind":"play","card":"K-7","target":3},"hand_size":5}`)

const mdbMeta = `{"actor":"seat:2","requestId":"req"}`

// op appends writer w's v-th event (v from 1).
type op func(ctx context.Context, w int, v int64) error

func run(ctx context.Context, c config) ([]*Result, error) {
	admin, err := pgx.Connect(ctx, c.url)
	if err != nil {
		return nil, err
	}
	defer admin.Close(context.Background())
	tag := randHex(4)
	pbemDB, mdbDB := "peers_es_"+tag, "peers_mdb_"+tag
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+pbemDB); err != nil {
		return nil, err
	}
	defer admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pbemDB+" WITH (FORCE)") //nolint:errcheck
	if err := migrations.Up(withDB(c.url, pbemDB, "")); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	conns := int32(slices.Max(c.writers) + 8)
	pool, err := newPool(ctx, withDB(c.url, pbemDB, ""), conns)
	if err != nil {
		return nil, err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `CREATE TABLE plain_events (LIKE events INCLUDING ALL);
		CREATE SEQUENCE plain_events_seq; ALTER TABLE plain_events ALTER position SET DEFAULT nextval('plain_events_seq')`); err != nil {
		return nil, err
	}
	store := postgres.New(pool)
	defer store.Close()
	hash := make([]byte, 32)
	now := time.Now()
	ops := map[string]op{
		"pbem": func(ctx context.Context, w int, v int64) error {
			_, err := store.Append(ctx, fmt.Sprint("bench-", w), v-1, []events.NewEvent{{
				Type: "Played", Data: data, Meta: events.Metadata{Actor: "seat:2", RequestID: "req"}}})
			return err
		},
		"insert": func(ctx context.Context, w int, v int64) error {
			_, err := pool.Exec(ctx, `INSERT INTO plain_events (stream, version, type, data, actor, request_id,
				idempotency_key, recorded_at, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
				fmt.Sprint("bench-", w), v, "Played", string(data), "seat:2", "req", "", now, hash)
			return err
		},
	}
	if c.install != "" {
		u, _ := url.Parse(c.url)
		cmd := exec.Command("bash", c.install, mdbDB)
		cmd.Env = append(cmd.Environ(), "PGHOST="+u.Hostname(), "PGPORT="+u.Port(), "PGUSER=postgres")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("install Message DB: %v\n%s", err, out)
		}
		defer admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+mdbDB+" WITH (FORCE)") //nolint:errcheck
		mdb, err := newPool(ctx, withDB(c.url, mdbDB, "message_store"), conns)
		if err != nil {
			return nil, err
		}
		defer mdb.Close()
		write := func(stream func(w int) string) op {
			return func(ctx context.Context, w int, v int64) error {
				_, err := mdb.Exec(ctx, `SELECT write_message($1, $2, 'Played', $3, $4, $5)`,
					uuid(), stream(w), string(data), mdbMeta, v-2)
				return err
			}
		}
		ops["mdb"] = write(func(w int) string { return fmt.Sprintf("game-%sx%d", tag, w) })
		ops["mdb-cat"] = write(func(w int) string { return fmt.Sprintf("game%dx%s-1", w, tag) })
	}
	for _, s := range c.systems {
		if ops[s] == nil {
			return nil, fmt.Errorf("unknown system %q", s)
		}
	}
	meter, err := pgmeter.New(ctx, admin)
	if err != nil {
		return nil, err
	}
	fmt.Printf("eventstore: PostgreSQL %s; %d round(s) of %s per system and writer count\n", settings(ctx, admin), c.rounds, c.phase)
	versions := map[string][]int64{}
	for _, s := range c.systems {
		versions[s] = make([]int64, slices.Max(c.writers))
	}
	var out []*Result
	for _, n := range c.writers {
		level := map[string]*Result{}
		for _, s := range c.systems {
			level[s] = &Result{Writers: n, System: s}
			if _, _, err := phase(ctx, ops[s], versions[s], n, 0, 20); err != nil { // warm-up
				return nil, fmt.Errorf("%s warm-up: %w", s, err)
			}
		}
		for r := range c.rounds {
			for k := range c.systems {
				s := c.systems[(k+r)%len(c.systems)]
				before := meter.Read(ctx)
				cnt, took, err := phase(ctx, ops[s], versions[s], n, c.phase, 0)
				if err != nil {
					return nil, fmt.Errorf("%s, %d writers: %w", s, n, err)
				}
				after := meter.Read(ctx)
				t := level[s]
				t.Events += cnt
				t.Seconds += took.Seconds()
				t.Rates = append(t.Rates, float64(cnt)/took.Seconds())
				t.ClientUS += float64((after.Self - before.Self).Microseconds())
				t.PGUS += float64((after.PG - before.PG).Microseconds())
				t.WAL += float64(after.WAL - before.WAL)
			}
		}
		fmt.Printf("\nwriters=%d\n  %-8s %10s %21s %14s %12s %10s\n", n, "system", "events/s", "per round (min-max)", "client CPU/ev", "PG CPU/ev", "WAL/ev")
		for _, s := range c.systems {
			t := level[s]
			ev := float64(max(t.Events, 1))
			t.Rate, t.ClientUS, t.PGUS, t.WAL = float64(t.Events)/t.Seconds, t.ClientUS/ev, t.PGUS/ev, t.WAL/ev
			fmt.Printf("  %-8s %10.0f %10.0f-%-10.0f %11.1f µs %9.1f µs %8.0f B\n", s, t.Rate, slices.Min(t.Rates), slices.Max(t.Rates), t.ClientUS, t.PGUS, t.WAL)
			out = append(out, t)
		}
	}
	return out, nil
}

// phase runs op from n writers for d (or, when d is 0, count appends each).
func phase(ctx context.Context, o op, versions []int64, n int, d time.Duration, count int) (int64, time.Duration, error) {
	var done atomic.Int64
	var first atomic.Pointer[error]
	var wg sync.WaitGroup
	start := time.Now()
	stop := start.Add(d)
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; (d > 0 && time.Now().Before(stop)) || (d == 0 && i < count); i++ {
				if first.Load() != nil {
					return
				}
				if err := o(ctx, w, versions[w]+1); err != nil {
					first.CompareAndSwap(nil, &err)
					return
				}
				versions[w]++
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	if e := first.Load(); e != nil {
		return 0, 0, *e
	}
	return done.Load(), time.Since(start), nil
}

func printSummary(counts []int, res []*Result) {
	rate := func(n int, s string) float64 {
		for _, r := range res {
			if r.Writers == n && r.System == s {
				return r.Rate
			}
		}
		return 0
	}
	ratio := func(a, b float64) string {
		if a == 0 || b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", a/b)
	}
	fmt.Printf("\nsummary (events/s; ratios of rates measured in the same run)\n  %-8s %9s %9s %9s %9s %10s %12s %12s\n",
		"writers", "pbem", "mdb", "mdb-cat", "insert", "pbem/mdb", "pbem/mdbcat", "pbem/insert")
	for _, n := range counts {
		p := rate(n, "pbem")
		fmt.Printf("  %-8d %9.0f %9.0f %9.0f %9.0f %10s %12s %12s\n", n, p, rate(n, "mdb"), rate(n, "mdb-cat"), rate(n, "insert"),
			ratio(p, rate(n, "mdb")), ratio(p, rate(n, "mdb-cat")), ratio(p, rate(n, "insert")))
	}
}

func newPool(ctx context.Context, dbURL string, conns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = conns
	return pgxpool.NewWithConfig(ctx, cfg)
}

// withDB returns u with database db and, when user is set, that user.
func withDB(u, db, user string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	p.Path = "/" + db
	if user != "" {
		p.User = url.User(user)
	}
	return p.String()
}

func settings(ctx context.Context, c *pgx.Conn) string {
	var v, sc, fs, sb string
	if err := c.QueryRow(ctx, `SELECT current_setting('server_version'), current_setting('synchronous_commit'),
		current_setting('fsync'), current_setting('shared_buffers')`).Scan(&v, &sc, &fs, &sb); err != nil {
		return "?"
	}
	return fmt.Sprintf("%s (synchronous_commit=%s, fsync=%s, shared_buffers=%s)", v, sc, fs, sb)
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// uuid returns a random version-4 UUID, as Message DB's writers supply.
func uuid() string {
	h := randHex(16)
	b := []byte(h)
	b[12] = '4'
	b[16] = "89ab"[b[16]%4]
	s := string(b)
	return s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:]
}
