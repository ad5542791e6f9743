package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"pbem/events"
)

// PoolCollector exports a pgx pool's statistics (pgxpool.Stat) and whether
// the database answers a ping, read at each scrape.
type PoolCollector struct {
	pool    *pgxpool.Pool
	timeout time.Duration

	up, acquired, idle, constructing, total, max   *prometheus.Desc
	acquires, emptyAcquires, canceled, acquireWait *prometheus.Desc
	newConns, lifetimeDestroyed, idleDestroyed     *prometheus.Desc
}

var _ prometheus.Collector = (*PoolCollector)(nil)

// NewPoolCollector returns a collector of pool.
func NewPoolCollector(pool *pgxpool.Pool) *PoolCollector {
	d := func(name, help string) *prometheus.Desc { return prometheus.NewDesc("pbem_db_"+name, help, nil, nil) }
	return &PoolCollector{
		pool:              pool,
		timeout:           2 * time.Second,
		up:                d("up", "1 when the database answered a ping during this scrape, else 0."),
		acquired:          d("pool_acquired_conns", "Connections in use."),
		idle:              d("pool_idle_conns", "Idle connections."),
		constructing:      d("pool_constructing_conns", "Connections being opened."),
		total:             d("pool_total_conns", "Open connections (in use, idle and being opened)."),
		max:               d("pool_max_conns", "Most connections the pool opens."),
		acquires:          d("pool_acquires_total", "Connections taken from the pool."),
		emptyAcquires:     d("pool_empty_acquires_total", "Acquires that found no idle connection and had to wait or open one."),
		canceled:          d("pool_canceled_acquires_total", "Acquires given up because their context ended."),
		acquireWait:       d("pool_acquire_seconds_total", "Time spent acquiring connections."),
		newConns:          d("pool_new_conns_total", "Connections opened."),
		lifetimeDestroyed: d("pool_max_lifetime_destroyed_total", "Connections closed for reaching their maximum lifetime."),
		idleDestroyed:     d("pool_max_idle_destroyed_total", "Connections closed for idling too long."),
	}
}

// Describe implements prometheus.Collector.
func (c *PoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.up, c.acquired, c.idle, c.constructing, c.total, c.max,
		c.acquires, c.emptyAcquires, c.canceled, c.acquireWait, c.newConns, c.lifetimeDestroyed, c.idleDestroyed} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *PoolCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	up := 0.0
	if c.pool.Ping(ctx) == nil {
		up = 1
	}
	s := c.pool.Stat()
	g := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	n := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	g(c.up, up)
	g(c.acquired, float64(s.AcquiredConns()))
	g(c.idle, float64(s.IdleConns()))
	g(c.constructing, float64(s.ConstructingConns()))
	g(c.total, float64(s.TotalConns()))
	g(c.max, float64(s.MaxConns()))
	n(c.acquires, float64(s.AcquireCount()))
	n(c.emptyAcquires, float64(s.EmptyAcquireCount()))
	n(c.canceled, float64(s.CanceledAcquireCount()))
	n(c.acquireWait, s.AcquireDuration().Seconds())
	n(c.newConns, float64(s.NewConnsCount()))
	n(c.lifetimeDestroyed, float64(s.MaxLifetimeDestroyCount()))
	n(c.idleDestroyed, float64(s.MaxIdleDestroyCount()))
}

// InstrumentStore returns s timing its appends: the latency of each batch
// (a move's append is a batch, and the group commit gathers several), its
// size, and the appends that lost to a concurrent one. Reads pass through.
func InstrumentStore(s events.Store, reg prometheus.Registerer) events.Store {
	f := promauto.With(reg)
	m := &meteredStore{Store: s,
		latency: f.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "pbem_store_append_seconds",
			Help:    "Time to append a batch of events with its projections, commit included, by result (ok, conflict, error).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"result"}),
		batch: f.NewHistogram(prometheus.HistogramOpts{
			Name:    "pbem_store_append_batch_appends",
			Help:    "Appends (games) written together in one transaction by the group commit.",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128},
		}),
		events: f.NewCounter(prometheus.CounterOpts{
			Name: "pbem_store_events_appended_total",
			Help: "Events written to the store.",
		}),
		conflicts: f.NewCounter(prometheus.CounterOpts{
			Name: "pbem_store_append_conflicts_total",
			Help: "Appends refused because their stream had moved on (stale version or lost race).",
		}),
	}
	return m
}

// meteredStore is a Store that measures its appends.
type meteredStore struct {
	events.Store
	latency           *prometheus.HistogramVec
	batch             prometheus.Histogram
	events, conflicts prometheus.Counter
}

// Append implements events.Store.
func (m *meteredStore) Append(ctx context.Context, stream string, expected int64, evs []events.NewEvent, hooks ...events.AppendHook) ([]events.Event, error) {
	start := time.Now()
	out, err := m.Store.Append(ctx, stream, expected, evs, hooks...)
	m.observe(start, err)
	m.batch.Observe(1)
	switch {
	case events.IsConflict(err):
		m.conflicts.Inc()
	case err == nil:
		m.events.Add(float64(len(out)))
	}
	return out, err
}

// AppendBatch implements events.Store.
func (m *meteredStore) AppendBatch(ctx context.Context, appends []events.Append, hook events.BatchHook) ([]events.Appended, error) {
	start := time.Now()
	out, err := m.Store.AppendBatch(ctx, appends, hook)
	m.observe(start, err)
	m.batch.Observe(float64(len(appends)))
	for _, o := range out {
		switch {
		case events.IsConflict(o.Err):
			m.conflicts.Inc()
		case o.Wrote():
			m.events.Add(float64(len(o.Events)))
		}
	}
	return out, err
}

// observe times one call: "conflict" is an Append that lost (a batch's
// lost appends are in the conflicts counter), "error" a failure.
func (m *meteredStore) observe(start time.Time, err error) {
	result := "ok"
	switch {
	case events.IsConflict(err):
		result = "conflict"
	case err != nil:
		result = "error"
	}
	m.latency.WithLabelValues(result).Observe(time.Since(start).Seconds())
}
