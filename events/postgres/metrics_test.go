package postgres_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"pbem/events"
	"pbem/events/postgres"
	"pbem/events/postgres/pgtest"
)

func gather(t *testing.T, reg *prometheus.Registry) map[string]*dto.Metric {
	t.Helper()
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.Metric{}
	for _, f := range fams {
		for _, m := range f.GetMetric() {
			name := f.GetName()
			for _, l := range m.GetLabel() {
				name += "/" + l.GetValue()
			}
			out[name] = m
		}
	}
	return out
}

// TestPoolCollector: a pool on a live database is up and counts its
// acquires; one on a port where nothing listens is down.
func TestPoolCollector(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	reg := prometheus.NewRegistry()
	reg.MustRegister(postgres.NewPoolCollector(pool))
	m := gather(t, reg)
	if m["pbem_db_up"].GetGauge().GetValue() != 1 || m["pbem_db_pool_acquires_total"].GetCounter().GetValue() < 1 ||
		m["pbem_db_pool_max_conns"].GetGauge().GetValue() < 1 {
		t.Errorf("live pool: %v", m)
	}

	cfg, err := pgxpool.ParseConfig("postgres://postgres@127.0.0.1:1/none?connect_timeout=2")
	if err != nil {
		t.Fatal(err)
	}
	dead, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer dead.Close()
	reg = prometheus.NewRegistry()
	reg.MustRegister(postgres.NewPoolCollector(dead))
	if m := gather(t, reg); m["pbem_db_up"].GetGauge().GetValue() != 0 || m["pbem_db_up"] == nil {
		t.Errorf("unreachable database: up %v", m["pbem_db_up"])
	}
}

// TestInstrumentStoreMeasuresAppends: appends, batches and conflicts are
// counted, and the store still works through the wrapper.
func TestInstrumentStoreMeasuresAppends(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	pg := postgres.New(pool)
	t.Cleanup(pg.Close)
	reg := prometheus.NewRegistry()
	s := postgres.InstrumentStore(pg, reg)
	ctx := context.Background()
	ev := []events.NewEvent{{Type: "e", Data: json.RawMessage(`{}`)}}
	if _, err := s.Append(ctx, "a", 0, append(ev, ev...)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "a", 0, ev); !events.IsConflict(err) {
		t.Fatalf("stale append: %v", err)
	}
	out, err := s.AppendBatch(ctx, []events.Append{{Stream: "b", Events: ev}, {Stream: "c", Events: ev}, {Stream: "a", Expected: 1, Events: ev}}, nil)
	if err != nil || out[0].Err != nil || out[1].Err != nil || !events.IsConflict(out[2].Err) {
		t.Fatalf("batch: %v %+v", err, out)
	}
	if got, _ := s.ReadStream(ctx, "a", 1); len(got) != 2 {
		t.Errorf("read through the wrapper: %d events", len(got))
	}
	m := gather(t, reg)
	if ok, lost := m["pbem_store_append_seconds/ok"].GetHistogram().GetSampleCount(),
		m["pbem_store_append_seconds/conflict"].GetHistogram().GetSampleCount(); ok != 2 || lost != 1 {
		t.Errorf("%d appends timed ok and %d lost, want 2 and 1", ok, lost)
	}
	if n := m["pbem_store_events_appended_total"].GetCounter().GetValue(); n != 4 {
		t.Errorf("%v events counted, want 4", n)
	}
	if n := m["pbem_store_append_conflicts_total"].GetCounter().GetValue(); n != 2 {
		t.Errorf("%v conflicts counted, want 2", n)
	}
	if h := m["pbem_store_append_batch_appends"].GetHistogram(); h.GetSampleCount() != 3 || h.GetSampleSum() != 5 {
		t.Errorf("batch sizes: %d batches, %v appends; want 3 and 5", h.GetSampleCount(), h.GetSampleSum())
	}
}
