package api

import (
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// httpMetrics are the request metrics: one counter and one latency
// histogram per route. The route is echo's route path
// ("/api/v1/games/:id/moves"), never the raw URL, so that the number of
// series stays bounded whatever clients ask for; a request that matches no
// route is counted as "unmatched".
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// newHTTPMetrics registers the request metrics on reg.
func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "pbem_http_requests_total",
			Help: "HTTP requests answered, by method, route (echo's route path) and status code.",
		}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "pbem_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method and route.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// observe measures and logs every request: the request metrics (when
// Config.Metrics is set) and, at debug level, one line per request. It
// runs the error handler itself, so that the status it records is the one
// sent; the handler's panics are turned into errors by s.recover, inside.
func (s *Server) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		if err := next(c); err != nil {
			c.Error(err)
		}
		took := time.Since(start)
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		status := c.Response().Status
		method := c.Request().Method
		if s.metrics != nil {
			s.metrics.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
			s.metrics.duration.WithLabelValues(method, route).Observe(took.Seconds())
		}
		ctx := c.Request().Context()
		if s.log.Enabled(ctx, slog.LevelDebug) {
			s.log.DebugContext(ctx, "request", "method", method, "route", route, "status", status,
				"duration_ms", float64(took.Microseconds())/1000)
		}
		return nil
	}
}

// metricsHandler serves GET /metrics: every collector of Config.Metrics in
// the Prometheus text format. A collector that fails (the database is
// down) is reported in the answer and the others are still served.
func (s *Server) metricsHandler() echo.HandlerFunc {
	h := promhttp.HandlerFor(s.cfg.Metrics, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      promLogger{s.log},
	})
	return echo.WrapHandler(h)
}

// promLogger passes promhttp's errors to the server's logger.
type promLogger struct{ log *slog.Logger }

func (l promLogger) Println(v ...any) {
	var err error
	for _, x := range v {
		if e, ok := x.(error); ok {
			err = errors.Join(err, e)
		}
	}
	l.log.Warn("metrics: collect", "err", err, "detail", v)
}
