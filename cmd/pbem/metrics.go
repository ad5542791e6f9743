package main

import (
	"fmt"
	"net"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"pbem/api"
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

// listenMetrics listens on PBEM_METRICS_LISTEN and returns the server of
// GET /metrics there (api.MetricsHandler, PBEM_METRICS_TOKEN if set), apart
// from the pages: an address only the monitoring reaches (the package's
// 127.0.0.1:9090). It prints "pbem: metrics on http://ADDR/metrics".
func listenMetrics(e *env, reg *prometheus.Registry, t api.Timeouts) (*http.Server, net.Listener, error) {
	ln, err := net.Listen("tcp", e.cfg.MetricsListen)
	if err != nil {
		return nil, nil, fmt.Errorf("PBEM_METRICS_LISTEN=%s: %w", e.cfg.MetricsListen, err)
	}
	fmt.Fprintf(e.stdout, "pbem: metrics on http://%s/metrics\n", ln.Addr())
	return api.NewHTTPServer(api.MetricsHandler(reg, e.cfg.MetricsToken, e.log), t), ln, nil
}
