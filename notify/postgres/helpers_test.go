package postgres_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/postgres/pgtest"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// newPool gives a fresh migrated database.
func newPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	return pgtest.NewPool(t)
}

// clock is a fake clock tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Now().UTC().Truncate(time.Microsecond)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func payload(email, lang string, seat int) outbox.Payload {
	return outbox.Payload{
		To:       outbox.Recipient{Seat: seat, Name: "Player " + fmt.Sprint(seat), Email: email},
		Language: lang,
		Game:     outbox.GameInfo{ID: "g1", Name: "lords-of-scotland", Players: []string{"Ann", "Bob"}},
	}
}

// insert writes outbox rows due at 'at' and returns their ids.
func insert(t testing.TB, pool *pgxpool.Pool, at time.Time, kind outbox.Kind, n int, email string) []int64 {
	t.Helper()
	b, err := json.Marshal(payload(email, "en", 0))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(context.Background(), `INSERT INTO outbox (game_id, seat, kind, payload, created_at, next_attempt_at)
SELECT 'g1', 0, $1, $2, $3, $3 FROM generate_series(1, $4) RETURNING id`, string(kind), b, at, n)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func testRenderer(t testing.TB) *notify.Renderer {
	t.Helper()
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: []byte("secret"), PublicURL: "https://pbem.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func smtpSender(t testing.TB, sink *smtpsink.Sink) *notify.SMTPSender {
	t.Helper()
	cfg, err := notify.ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	s, err := notify.NewSMTPSender(cfg, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type workerOpts struct {
	// recordFor is WorkerConfig.RecordFor; 0: one attempt.
	recordFor time.Duration
	clock     *clock
	sender    notify.Sender
	store     notify.OutboxStore
	prefs     notify.PrefStore
	batch     int
	// senders is WorkerConfig.Senders (what Run uses); 0: the default.
	senders int
}

func newWorker(t testing.TB, pool *pgxpool.Pool, o workerOpts) *notify.Worker {
	t.Helper()
	if o.store == nil {
		o.store = postgres.NewOutbox(pool)
	}
	var now func() time.Time
	if o.clock != nil {
		now = o.clock.Now
	}
	w, err := notify.NewWorker(notify.WorkerConfig{
		Store: o.store, Sender: o.sender, Renderer: testRenderer(t), Prefs: o.prefs,
		Now: now, Batch: o.batch, Senders: o.senders, Lease: time.Minute, MaxAttempts: 5,
		Backoff:   func(int) time.Duration { return 10 * time.Second },
		RecordFor: cmp.Or(o.recordFor, -1),
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// messageIDs counts received messages by Message-ID.
func messageIDs(t testing.TB, got []smtpsink.Received) map[string]int {
	t.Helper()
	ids := map[string]int{}
	for _, r := range got {
		p, err := smtpsink.Parse(r.Data)
		if err != nil {
			t.Fatal(err)
		}
		ids[p.Header.Get("Message-Id")]++
	}
	return ids
}

func statusCounts(t testing.TB, pool *pgxpool.Pool) map[string]int {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT status, count(*) FROM outbox GROUP BY status`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			t.Fatal(err)
		}
		out[s] = n
	}
	return out
}
