package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"pbem/notify/postgres"
	"pbem/projections/outbox"
)

// gauges gathers reg and returns its gauges by name, and the error.
func gauges(reg *prometheus.Registry) (map[string]float64, error) {
	fams, err := reg.Gather()
	out := map[string]float64{}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			if m.Gauge != nil {
				out[f.GetName()] = m.Gauge.GetValue()
			}
		}
	}
	return out, err
}

// TestOutboxCollectorReportsDepthAndAge: rows due an hour ago, rows due
// tomorrow (a backoff) and a failed row are counted apart, and the age is
// that of the oldest due row; a claimed (leased) row is no longer due.
func TestOutboxCollectorReportsDepthAndAge(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	reg := prometheus.NewRegistry()
	reg.MustRegister(postgres.NewOutboxCollector(pool))
	g, err := gauges(reg)
	if err != nil || g["pbem_outbox_pending"] != 0 || g["pbem_outbox_oldest_due_age_seconds"] != 0 {
		t.Fatalf("empty outbox: %v %v", g, err)
	}
	now := time.Now()
	insert(t, pool, now.Add(-time.Hour), outbox.YourTurn, 2, "ann@example.org")
	insert(t, pool, now.Add(24*time.Hour), outbox.Reminder, 3, "bob@example.org")
	failed := insert(t, pool, now.Add(-2*time.Hour), outbox.Invitation, 1, "eve@example.org")
	if _, err := pool.Exec(context.Background(), `UPDATE outbox SET status = 'failed' WHERE id = $1`, failed[0]); err != nil {
		t.Fatal(err)
	}
	g, err = gauges(reg)
	if err != nil {
		t.Fatal(err)
	}
	if g["pbem_outbox_pending"] != 5 || g["pbem_outbox_due"] != 2 || g["pbem_outbox_failed"] != 1 {
		t.Errorf("gauges %v: want 5 pending, 2 due, 1 failed", g)
	}
	if age := g["pbem_outbox_oldest_due_age_seconds"]; age < 3590 || age > 3700 {
		t.Errorf("oldest due age %v s, want about an hour", age)
	}
	if _, err := postgres.NewOutbox(pool).Claim(context.Background(), now, 10, time.Minute); err != nil {
		t.Fatal(err)
	}
	if g, _ = gauges(reg); g["pbem_outbox_due"] != 0 || g["pbem_outbox_oldest_due_age_seconds"] != 0 || g["pbem_outbox_pending"] != 5 {
		t.Errorf("after a claim: %v, want nothing due and 5 pending", g)
	}
}

// TestOutboxCollectorReportsAnUnreachableDatabase: the scrape reports the
// error instead of stale or zero numbers.
func TestOutboxCollectorReportsAnUnreachableDatabase(t *testing.T) {
	t.Parallel()
	cfg, err := pgxpool.ParseConfig("postgres://postgres@127.0.0.1:1/none?connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	reg := prometheus.NewRegistry()
	reg.MustRegister(postgres.NewOutboxCollector(pool))
	g, err := gauges(reg)
	if err == nil || len(g) != 0 {
		t.Errorf("unreachable database: gauges %v, error %v", g, err)
	}
}
