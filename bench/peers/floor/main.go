// Command floor measures the least a move can cost on this machine, beside
// pbem and boardgame.io in bench/peers/run.sh: an HTTP endpoint (net/http and
// pgx) that does one durable INSERT of a move-sized row a request, driven by
// -players client goroutines in the same process, as ../shared/peers' limit/
// does (its method: 3 s of warm-up, then the measured play; each client plays
// its own game, one version after the other). It is not pbem code and imports
// none.
//
// It creates a database of its own on the server of -url (an admin URL, as
// pbem-load.js takes), and prints one JSON object (also written to -json) with
// the figures table.js reads for pbem: moves_per_s (requests acknowledged a
// second), p50_ms and p99_ms of a request, process_cpu_ms (this process:
// server and clients, a request), pg_cluster_cpu_ms (the whole PostgreSQL
// cluster, read from /proc as lib/meter.js reads it) and wal_bytes a request.
//
// Usage: floor -url ADMIN_URL [-duration 20s] [-players 32] [-json FILE]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/bench/internal/pgmeter"
)

// move is the body of a request: about the size of a card game's event.
var move = []byte(`{"type":"muster","card":"macdonnell-12","face":"up","seat":1,"why":"a move of about the size of a card game's event"}`)

func main() {
	url := flag.String("url", os.Getenv("PEERS_DATABASE_URL"), "admin URL of the PostgreSQL server (a database is created there)")
	players := flag.Int("players", 32, "concurrent clients")
	dur := flag.Duration("duration", 20*time.Second, "measured play")
	jsonOut := flag.String("json", "", "also write the figures to this file")
	flag.Parse()
	if err := run(context.Background(), *url, *players, *dur, *jsonOut); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, adminURL string, players int, dur time.Duration, jsonOut string) error {
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer admin.Close(ctx)
	db := fmt.Sprintf("peers_floor_%d", os.Getpid())
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		return err
	}
	defer admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)")
	cfg, err := pgxpool.ParseConfig(adminURL)
	if err != nil {
		return err
	}
	cfg.ConnConfig.Database = db
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, `CREATE TABLE moves (
		game text NOT NULL, version int NOT NULL, type text NOT NULL, data jsonb NOT NULL,
		recorded_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (game, version))`); err != nil {
		return err
	}
	m, err := pgmeter.New(ctx, admin)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler(pool)}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()
	cl := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: players, DisableCompression: true}}

	// 3 s of warm-up (games g0...), then the measured play (games m0...).
	if _, _, err := play(cl, base, "w", players, 3*time.Second, nil); err != nil {
		return err
	}
	r0 := m.Read(ctx)
	var lat []time.Duration
	n, secs, err := play(cl, base, "m", players, dur, &lat)
	if err != nil {
		return err
	}
	r1 := m.Read(ctx)
	if n == 0 {
		return fmt.Errorf("no request acknowledged")
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	k := float64(n)
	out := map[string]any{
		"system": "floor", "players": players, "moves": n, "moves_per_s": k / secs,
		"p50_ms": q(0.5), "p99_ms": q(0.99),
		"process_cpu_ms":    float64((r1.Self - r0.Self).Microseconds()) / 1000 / k,
		"pg_cluster_cpu_ms": float64((r1.PG - r0.PG).Microseconds()) / 1000 / k,
		"wal_bytes":         float64(r1.WAL-r0.WAL) / k,
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(b))
	if jsonOut != "" {
		return os.WriteFile(jsonOut, b, 0o644)
	}
	return nil
}

// handler answers POST /games/{id}/moves {"version":v,"move":{...}} with one
// INSERT of version v+1 (a durable commit) and {"version":v+1}.
func handler(pool *pgxpool.Pool) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /games/{id}/moves", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Version int             `json:"version"`
			Move    json.RawMessage `json:"move"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if _, err := pool.Exec(r.Context(), `INSERT INTO moves (game, version, type, data) VALUES ($1, $2, 'moved', $3)`,
			r.PathValue("id"), req.Version+1, req.Move); err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"version":%d}`, req.Version+1)
	})
	return mux
}

// play runs players clients for d, each moving its own game (prefix and its
// number) one version after the other; it returns the requests acknowledged,
// the seconds taken and, into lat when not nil, their latencies.
func play(cl *http.Client, base, prefix string, players int, d time.Duration, lat *[]time.Duration) (int64, float64, error) {
	var stop atomic.Bool
	var n atomic.Int64
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	t0 := time.Now()
	for g := 0; g < players; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			var mine []time.Duration
			for v := 0; !stop.Load(); {
				body, _ := json.Marshal(map[string]any{"version": v, "move": json.RawMessage(move)})
				t := time.Now()
				resp, err := cl.Post(fmt.Sprintf("%s/games/%s%d/moves", base, prefix, g), "application/json", bytes.NewReader(body))
				if err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					mu.Lock()
					firstErr = fmt.Errorf("POST: %s", resp.Status)
					mu.Unlock()
					return
				}
				v++
				n.Add(1)
				mine = append(mine, time.Since(t))
			}
			if lat != nil {
				mu.Lock()
				*lat = append(*lat, mine...)
				mu.Unlock()
			}
		}(g)
	}
	time.Sleep(d)
	stop.Store(true)
	wg.Wait()
	return n.Load(), time.Since(t0).Seconds(), firstErr
}
