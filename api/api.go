// Package api is pbem's HTTP interface: the JSON REST API under /api/v1
// (games, views, moves, history, audit, admin actions, the OpenAPI
// document) and, in files of their own, the mail and HTML page routes.
//
// Every route is listed in one table (routes.go). A file that adds routes
// (api/mail*.go, the play pages) defines its handlers as Server methods and
// adds its lines to that table; routes that live in other packages can be
// passed in Config.Routes.
//
// Errors are JSON: {"error":{"code":"...","message":"..."}}; codes map to
// statuses in one table (error.go), a database outage is a 503 with
// Retry-After (unavailable.go), and anything else unexpected is logged and
// shown as "internal error". The middleware is echo's (middleware.go); the
// HTTP server's timeouts are in timeouts.go.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"

	"pbem/projections"
)

// Config is what a Server needs.
type Config struct {
	// Service is the game service.
	Service *projections.Service
	// Logger logs requests' errors; nil means slog.Default().
	Logger *slog.Logger
	// Health reports whether the server can serve (GET /healthz); nil means
	// always healthy.
	Health func(ctx context.Context) error
	// Routes are extra routes, registered after the table's.
	Routes []Route
}

// Route is one entry of the route table.
type Route struct {
	Method  string
	Path    string
	Handler echo.HandlerFunc
}

// Server is the HTTP handler.
type Server struct {
	cfg  Config
	svc  *projections.Service
	log  *slog.Logger
	echo *echo.Echo
	// viewBufs recycles the buffers views are written into: a view is
	// several kilobytes, written once per read and then sent.
	viewBufs sync.Pool
}

// New returns a Server with every route registered.
func New(cfg Config) *Server {
	s := &Server{cfg: cfg, svc: cfg.Service, log: cfg.Logger}
	s.viewBufs.New = func() any { b := make([]byte, 0, 16<<10); return &b }
	if s.log == nil {
		s.log = slog.Default()
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = s.handleError
	e.Use(s.middleware()...)
	for _, r := range append(s.routes(), cfg.Routes...) {
		e.Add(r.Method, r.Path, r.Handler)
	}
	s.echo = e
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Echo returns the underlying echo instance (for tests and wiring).
func (s *Server) Echo() *echo.Echo { return s.echo }

func requestID(c echo.Context) string {
	return c.Response().Header().Get(echo.HeaderXRequestID)
}
