package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	"pbem/events/postgres"
	"pbem/events/postgres/pgtest"
)

// benchPool returns a pool on a fresh migrated database, big enough for 32
// concurrent writers.
func benchPool(b *testing.B) *pgxpool.Pool {
	b.Helper()
	cfg, err := pgxpool.ParseConfig(pgtest.NewDB(b))
	if err != nil {
		b.Fatal(err)
	}
	cfg.MaxConns = 40
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	return pool
}

// benchData is a typical move event's data.
var benchData = json.RawMessage(`{"seat":2,"move":{"kind":"play","card":"K-7","target":3},"hand_size":5}`)

// parallel runs op b.N times spread over writers goroutines (each with its
// own index and count) and reports the rate as ops/s.
func parallel(b *testing.B, writers int, op func(w, i int) error) {
	b.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	b.ResetTimer()
	start := time.Now()
	for w := range writers {
		n := b.N / writers
		if w < b.N%writers {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				if err := op(w, i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "ops/s")
}

// BenchmarkAppend compares Store.Append (one event per transaction, each
// writer on its own stream) with a plain single-row INSERT into a table of
// the same shape, at 1, 8 and 32 concurrent writers. The goal is an append
// rate of at least 80% of the plain insert's.
//
// The machine is shared, so the two are measured side by side rather than
// one after the other: each writer alternates a plain insert and an append,
// and the rates come from each kind's mean latency (writers / latency).
// It reports plain-events/s, append-events/s and append-% (the ratio).
func BenchmarkAppend(b *testing.B) {
	for _, writers := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			pool := benchPool(b)
			s := postgres.New(pool)
			defer s.Close()
			ctx := context.Background()
			if _, err := pool.Exec(ctx, `CREATE TABLE plain_events (LIKE events INCLUDING ALL);
				CREATE SEQUENCE plain_events_seq;
				ALTER TABLE plain_events ALTER position SET DEFAULT nextval('plain_events_seq')`); err != nil {
				b.Fatal(err)
			}
			hash := make([]byte, 32)
			_, _ = rand.Read(hash)
			now := time.Now()
			var mu sync.Mutex
			var plainTime, storeTime time.Duration
			parallel(b, writers, func(w, i int) error {
				stream := fmt.Sprint("bench-", w)
				t0 := time.Now()
				if _, err := pool.Exec(ctx, `INSERT INTO plain_events (stream, version, type, data, actor, request_id,
					idempotency_key, recorded_at, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
					stream, i+1, "Played", string(benchData), "seat:2", "req", "", now, hash); err != nil {
					return err
				}
				t1 := time.Now()
				if _, err := s.Append(ctx, stream, int64(i), []events.NewEvent{{
					Type: "Played", Data: benchData, Meta: events.Metadata{Actor: "seat:2", RequestID: "req"},
				}}); err != nil {
					return err
				}
				t2 := time.Now()
				mu.Lock()
				plainTime += t1.Sub(t0)
				storeTime += t2.Sub(t1)
				mu.Unlock()
				return nil
			})
			plainRate := float64(writers) / (plainTime.Seconds() / float64(b.N))
			storeRate := float64(writers) / (storeTime.Seconds() / float64(b.N))
			b.ReportMetric(plainRate, "plain-events/s")
			b.ReportMetric(storeRate, "append-events/s")
			b.ReportMetric(100*storeRate/plainRate, "append-%")
		})
	}
}

// fill appends n events, one per append, over streams streams.
func fill(b *testing.B, s *postgres.Store, streams, n int) {
	b.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n / streams {
				if _, err := s.Append(ctx, fmt.Sprint("fill-", w), int64(i), []events.NewEvent{{Type: "Played", Data: benchData}}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkReadStream reads a 1,000-event stream (goal: under 2 ms): table,
// its events in the table; archived, the stream archived (all but its first
// and last events in archived_streams). Besides the mean (ns/op) it reports
// the median read (p50-ms), which a busy shared machine disturbs less.
func BenchmarkReadStream(b *testing.B) {
	for _, archive := range []bool{false, true} {
		name := map[bool]string{false: "table", true: "archived"}[archive]
		b.Run(name, func(b *testing.B) {
			s := postgres.New(benchPool(b))
			defer s.Close()
			fill(b, s, 1, 1000)
			ctx := context.Background()
			if archive {
				if n, err := s.Archive(ctx, []string{"fill-0"}); err != nil || n != 1 {
					b.Fatalf("archived %d streams: %v", n, err)
				}
			}
			var took []time.Duration
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				evs, err := s.ReadStream(ctx, "fill-0", 1)
				took = append(took, time.Since(t0))
				if err != nil || len(evs) != 1000 {
					b.Fatalf("%d events, %v", len(evs), err)
				}
			}
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "p50-ms")
		})
	}
}

// BenchmarkReadAll scans a 20,000-event global log in pages of 1,000 (goal:
// over 200,000 events/s): table, 20 streams of 1,000 events in the table;
// archived, 100 streams of 200 events (a game's), all archived, whose
// positions interleave over the whole log, so that every page overlaps
// every archived stream (the worst case: a page of a real history overlaps
// the games played while its events were).
func BenchmarkReadAll(b *testing.B) {
	for _, c := range []struct {
		name    string
		streams int
		archive bool
	}{{"table", 20, false}, {"archived", 100, true}} {
		b.Run(c.name, func(b *testing.B) {
			s := postgres.New(benchPool(b))
			defer s.Close()
			const total = 20000
			fill(b, s, c.streams, total)
			ctx := context.Background()
			if c.archive {
				var names []string
				for w := range c.streams {
					names = append(names, fmt.Sprint("fill-", w))
				}
				if n, err := s.Archive(ctx, names); err != nil || n != c.streams {
					b.Fatalf("archived %d streams: %v", n, err)
				}
			}
			b.ResetTimer()
			start := time.Now()
			for b.Loop() {
				var after int64
				n := 0
				for {
					evs, err := s.ReadAll(ctx, after, 1000)
					if err != nil {
						b.Fatal(err)
					}
					if len(evs) == 0 {
						break
					}
					n += len(evs)
					after = evs[len(evs)-1].Position
				}
				if n != total {
					b.Fatalf("scanned %d events, want %d", n, total)
				}
			}
			b.ReportMetric(float64(b.N*total)/time.Since(start).Seconds(), "events/s")
		})
	}
}

// BenchmarkAdvisoryLockInsert measures the design this store does not use:
// the same plain INSERT serialised by a transaction-level advisory lock (so
// that positions would be handed out in commit order), side by side with
// the unlocked INSERT, in one round trip each. It reports locked-% (the
// locked rate as a share of the plain one).
func BenchmarkAdvisoryLockInsert(b *testing.B) {
	for _, writers := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			pool := benchPool(b)
			ctx := context.Background()
			if _, err := pool.Exec(ctx, `CREATE TABLE plain_events (LIKE events INCLUDING ALL);
				CREATE SEQUENCE plain_events_seq;
				ALTER TABLE plain_events ALTER position SET DEFAULT nextval('plain_events_seq')`); err != nil {
				b.Fatal(err)
			}
			const insert = `INSERT INTO plain_events (stream, version, type, data, recorded_at, hash)
				VALUES ('%s', %d, 'Played', '{"seat":2}', now(), sha256('b'))`
			var mu sync.Mutex
			var plainTime, lockedTime time.Duration
			parallel(b, writers, func(w, i int) error {
				t0 := time.Now()
				if _, err := pool.Exec(ctx, fmt.Sprintf(insert, fmt.Sprint("plain-", w), i+1)); err != nil {
					return err
				}
				t1 := time.Now()
				if _, err := pool.Exec(ctx, "SELECT pg_advisory_xact_lock(42); "+fmt.Sprintf(insert, fmt.Sprint("locked-", w), i+1)); err != nil {
					return err
				}
				t2 := time.Now()
				mu.Lock()
				plainTime += t1.Sub(t0)
				lockedTime += t2.Sub(t1)
				mu.Unlock()
				return nil
			})
			plainRate := float64(writers) / (plainTime.Seconds() / float64(b.N))
			lockedRate := float64(writers) / (lockedTime.Seconds() / float64(b.N))
			b.ReportMetric(plainRate, "plain-events/s")
			b.ReportMetric(lockedRate, "locked-events/s")
			b.ReportMetric(100*lockedRate/plainRate, "locked-%")
		})
	}
}
