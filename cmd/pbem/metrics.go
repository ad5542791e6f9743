package main

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"pbem/api/inbound"
	"pbem/events"
	evpg "pbem/events/postgres"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
)

// serveMetrics is what serve measures, on a registry of its own (not
// prometheus' global one, so that tests can run several servers in one
// process): the Go runtime and the process, the database pool, the outbox,
// the event store's appends, the moves, the mail side; the api package
// adds the requests' metrics and serves GET /metrics.
type serveMetrics struct {
	reg     *prometheus.Registry
	mail    *notify.Metrics
	inbound *inbound.Metrics
	moves   *prometheus.CounterVec
}

// newServeMetrics builds the registry and registers the collectors that
// read pool at each scrape.
func newServeMetrics(pool *pgxpool.Pool) *serveMetrics {
	reg := prometheus.NewRegistry()
	m := &serveMetrics{
		reg:     reg,
		mail:    notify.NewMetrics(reg),
		inbound: inbound.NewMetrics(reg),
		moves: promauto.With(reg).NewCounterVec(prometheus.CounterOpts{
			Name: "pbem_moves_total",
			Help: "Players' moves committed, by game (its name: lords-of-scotland, swords-and-bagpipes).",
		}, []string{"game"}),
	}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		evpg.NewPoolCollector(pool),
		notifypg.NewOutboxCollector(pool),
	)
	return m
}

// store returns s measuring its appends.
func (m *serveMetrics) store(s events.Store) events.Store { return evpg.InstrumentStore(s, m.reg) }

// moved counts a move of a game named game (play.Config.Moved).
func (m *serveMetrics) moved(game string) { m.moves.WithLabelValues(game).Inc() }
