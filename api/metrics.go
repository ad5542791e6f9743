package api

import (
	"crypto/subtle"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// httpMetrics are the request metrics: one counter and one latency
// histogram per route. Every label comes from a fixed set, so that the
// number of series stays bounded whatever clients send: the route is one
// of the server's route paths ("/api/v1/games/:id/moves"), never the raw
// URL, and a request that matches none is counted as "unmatched"; the
// method is one of knownMethods, any other is "other".
type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	// routes are the route paths of the route table (the route label's
	// values, with "unmatched").
	routes map[string]bool
}

// knownMethods are the method label's values (with "other"): the methods
// of RFC 9110 and PATCH.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodConnect: true,
	http.MethodOptions: true, http.MethodTrace: true,
}

// labels returns the method and route labels of a request.
func (m *httpMetrics) labels(method, route string) (string, string) {
	if !knownMethods[method] {
		method = "other"
	}
	if !m.routes[route] {
		route = "unmatched"
	}
	return method, route
}

// newHTTPMetrics registers the request metrics on reg.
// routes are the route table's entries.
func newHTTPMetrics(reg prometheus.Registerer, routes []Route) *httpMetrics {
	f := promauto.With(reg)
	m := &httpMetrics{
		routes: map[string]bool{},
		requests: f.NewCounterVec(prometheus.CounterOpts{
			Name: "pbem_http_requests_total",
			Help: "HTTP requests answered, by method, route (echo's route path) and status code.",
		}, []string{"method", "route", "status"}),
		duration: f.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "pbem_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method and route.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"method", "route"}),
	}
	for _, r := range routes {
		m.routes[r.Path] = true
	}
	return m
}

// observe measures and logs every request: the request metrics (when
// Config.Metrics is set) and, at debug level, one line per request. It
// runs the error handler itself, so that the status it records is the one
// sent; the handler's panics are turned into errors by recoverer, inside.
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
			method, route := s.metrics.labels(method, route)
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

// MetricsHandler serves GET /metrics: every collector of reg in the
// Prometheus text format. A collector that fails (the database is down)
// is reported in the answer and the others are still served. With a
// token, a request without "Authorization: Bearer token" is answered 401
// (the token compared in constant time). It is the main handler's
// /metrics route, and the whole handler of PBEM_METRICS_LISTEN, where any
// other path is 404.
func MetricsHandler(reg *prometheus.Registry, token string, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	h := promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      promLogger{log},
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
				http.Error(w, "give the metrics token (PBEM_METRICS_TOKEN) as Authorization: Bearer TOKEN", http.StatusUnauthorized)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
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
