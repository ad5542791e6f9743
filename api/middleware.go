package api

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// bodyLimit is the largest request body accepted (JSON or form), in
// echo's BodyLimit notation; maxBody is the same in bytes.
const (
	bodyLimit = "64K"
	maxBody   = 64 << 10
)

// middleware is the chain every request goes through, outermost first
// (docs/ARCHITECTURE.md lists it too, and TestMiddlewareChainIsTrue keeps
// the two the same):
//
//   - echo's RequestID: the client's X-Request-ID if it is sane (1 to 64
//     printable ASCII characters), else a random one, echoed in the
//     response, put in the request's context (WithRequestID) so that every
//     line logged for the request says it, and written in events;
//   - observe (metrics.go): the request metrics when Config.Metrics is
//     set, and a debug line per request;
//   - echo's Recover: a handler's panic becomes an internal error, which
//     the error handler logs (with the stack) and answers as JSON 500;
//   - Config.Ready, if set: 503 while the schema is being migrated;
//   - response compression (compress.go): gzip for pages and JSON;
//   - for the JSON API (paths under /api/): echo's BodyLimit (413 above
//     64 KiB) and the text check of path and query parameters (400 for a
//     NUL byte or invalid UTF-8, naming the parameter);
//   - with Config.HSTS, echo's Secure middleware for Strict-Transport-Security
//     alone (one year, this host only) on answers over HTTPS.
//
// The HTML pages apply BodyLimit and the text check themselves
// (pages.wrap), so that their refusals are HTML pages, not JSON; a page's
// panic, recovered here, is rendered as an HTML page by the error handler
// (handleError, pageOf).
func (s *Server) middleware() []echo.MiddlewareFunc {
	mw := []echo.MiddlewareFunc{
		middleware.RequestIDWithConfig(middleware.RequestIDConfig{Generator: newRequestID, RequestIDHandler: saneRequestID}),
		s.observe,
		recoverer(),
		s.ready,
		compress(),
		middleware.BodyLimitWithConfig(middleware.BodyLimitConfig{Skipper: notAPI, Limit: bodyLimit}),
		textGuard(notAPI),
	}
	if s.cfg.HSTS {
		// Only the header: the pages set their own framing and content
		// headers.
		mw = append(mw, middleware.SecureWithConfig(middleware.SecureConfig{HSTSMaxAge: hstsMaxAge, HSTSExcludeSubdomains: true}))
	}
	return mw
}

// hstsMaxAge is the Strict-Transport-Security max-age, in seconds: a year.
const hstsMaxAge = 365 * 24 * 3600

// ready answers 503 while Config.Ready says the schema is not ready,
// except to GET /healthz (which says why) and GET /metrics.
func (s *Server) ready(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.cfg.Ready == nil {
			return next(c)
		}
		if p := c.Path(); p == "/healthz" || p == "/metrics" {
			return next(c)
		}
		if err := s.cfg.Ready(c.Request().Context(), false); err != nil {
			return err
		}
		return next(c)
	}
}

// recoverer is echo's Recover middleware, the chain's one, handing the panic, with the
// panicking goroutine's stack, to the caller as an error (which the error
// handler logs and answers as an internal error).
func recoverer() echo.MiddlewareFunc {
	return middleware.RecoverWithConfig(middleware.RecoverConfig{
		DisableStackAll:     true,
		DisableErrorHandler: true,
		LogErrorFunc: func(_ echo.Context, err error, stack []byte) error {
			return fmt.Errorf("panic: %w\n%s", err, stack)
		},
	})
}

// notAPI skips a middleware outside the JSON API.
func notAPI(c echo.Context) bool { return !strings.HasPrefix(c.Request().URL.Path, "/api/") }

// newRequestID is a random request id: 16 hexadecimal digits.
func newRequestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// saneRequestID replaces a client's X-Request-ID that is too long or holds
// anything but printable ASCII (it goes into logs and event metadata), and
// puts the request's id in its context for the log lines.
func saneRequestID(c echo.Context, id string) {
	if len(id) == 0 || len(id) > 64 || strings.ContainsFunc(id, func(r rune) bool { return r < '!' || r > '~' }) {
		id = newRequestID()
		c.Response().Header().Set(echo.HeaderXRequestID, id)
	}
	c.SetRequest(c.Request().WithContext(WithRequestID(c.Request().Context(), id)))
}

// textGuard refuses a request whose path or query parameters hold a NUL
// byte or invalid UTF-8 (PostgreSQL refuses both in text), with an
// events.CodeInvalid error naming the parameter. skip, if set, skips requests.
func textGuard(skip middleware.Skipper) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if skip != nil && skip(c) {
				return next(c)
			}
			if err := checkParams(c); err != nil {
				return err
			}
			return next(c)
		}
	}
}
