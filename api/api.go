// Package api is pbem's HTTP interface: the JSON REST API under /api/v1
// (games, views, moves, history, audit, admin actions, the OpenAPI
// document) and, in files of their own, the mail and HTML page routes.
//
// Every route is listed in one table (routes.go): the JSON API's handlers
// are Server methods, the pages' methods of pages (page*.go, served when
// Config.Pages is set) and the mail routes' methods of mailRoutes
// (mail*.go, when Config.Mail is set); a file that adds routes adds its
// lines to that table. No route comes from another package.
//
// Errors are JSON: {"error":{"code":"...","message":"..."}}; codes map to
// statuses in one table (error.go), a database outage is a 503 with
// Retry-After (unavailable.go), and anything else unexpected is logged and
// shown as "internal error". The middleware is echo's (middleware.go); the
// HTTP server's timeouts are in timeouts.go.
//
// Every request gets an id (X-Request-ID), carried in its context so that
// each line logged for it says request_id (logging.go), and is measured by
// route and status for GET /metrics when Config.Metrics is set (metrics.go).
//
// It owns the ways in over HTTP; it must not import pgx, go-mail or the
// Postgres packages (cmd/pbem/layering_test.go).
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
)

// Config is what a Server needs.
type Config struct {
	// Service is the game service.
	Service Service
	// Logger logs requests' errors; nil means slog.Default().
	Logger *slog.Logger
	// Health reports whether the server can serve (GET /healthz); nil means
	// always healthy.
	Health func(ctx context.Context) error
	// Pages, when set, serves the HTML pages (lobby, play, admin...).
	Pages *PageConfig
	// Mail, when set, serves the mail routes (unsubscribe, failed emails,
	// the dev mailbox).
	Mail *MailConfig
	// Metrics, if set, receives the request metrics (see httpMetrics) and
	// is served at GET /metrics (unless MetricsApart); nil: no metrics and
	// no /metrics route.
	Metrics *prometheus.Registry
	// MetricsToken, if set, is the bearer token GET /metrics requires
	// (PBEM_METRICS_TOKEN): without it, 401. The process counters there
	// (CPU, allocations), read around a bot's move, would time its
	// decision, which the decision pause hides from the clock.
	MetricsToken string
	// MetricsApart: /metrics is served on a listener of its own
	// (PBEM_METRICS_LISTEN, MetricsHandler), and this handler has no such
	// route (404).
	MetricsApart bool
	// Limits bound what one IP and one organiser may have emailed
	// (zero: the defaults).
	Limits Limits
	// Ready, if set, is asked before every request but GET /healthz and
	// GET /metrics; while it returns an error (wrapping ErrSchemaNotReady:
	// the schema is being migrated), requests are answered 503 with
	// Retry-After. It answers from its last look at the schema, or looks
	// again first when fresh is set (after a query met a missing table).
	Ready func(ctx context.Context, fresh bool) error
	// TrustProxy takes the client IP of the rate limits from
	// X-Forwarded-For (set it behind a reverse proxy); else the peer's.
	TrustProxy bool
	// HSTS sends Strict-Transport-Security (one year) on answers over
	// HTTPS: set it when the server serves HTTPS itself.
	HSTS bool
}

// Route is one entry of the route table.
type Route struct {
	Method  string
	Path    string
	Handler echo.HandlerFunc
}

// Server is the HTTP handler.
type Server struct {
	cfg   Config
	svc   Service
	log   *slog.Logger
	echo  *echo.Echo
	pages *pages      // nil without Config.Pages
	mail  *mailRoutes // nil without Config.Mail
	// metrics is nil when Config.Metrics is.
	metrics *httpMetrics
	limit   *limiter
	// cop is the cross-origin check of the JSON sign-in routes (the
	// pages' when they are served: it trusts PBEM_PUBLIC_URL's origin).
	cop *http.CrossOriginProtection
}

// New returns a Server with every route registered.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, svc: cfg.Service, log: cfg.Logger}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.log = withRequestIDs(s.log)
	s.limit = newLimiter(cfg.Limits, time.Now)
	e := echo.New()
	e.IPExtractor = echo.ExtractIPDirect()
	if cfg.TrustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	}
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.Use(s.middleware()...)
	if cfg.Pages != nil {
		s.pages = newPages(*cfg.Pages)
		s.pages.limit = s.limit
		s.pages.schemaError = s.schemaError
	}
	s.cop = http.NewCrossOriginProtection()
	if s.pages != nil {
		s.cop = s.pages.cop
	}
	if cfg.Mail != nil {
		s.mail = newMailRoutes(*cfg.Mail)
	}
	routes := s.routes()
	if cfg.Metrics != nil {
		s.metrics = newHTTPMetrics(cfg.Metrics, routes)
	}
	for _, r := range routes {
		e.Add(r.Method, r.Path, r.Handler)
	}
	s.echo = e
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

func requestID(c echo.Context) string {
	return c.Response().Header().Get(echo.HeaderXRequestID)
}
