package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// healthBody is the answer of GET /healthz.
type healthBody struct {
	// Status is "ok" or "unavailable".
	Status string `json:"status"`
	// Database is "ok", or why the check failed: the kind of outage
	// ("connection refused", "read-only (standby or failover)"...), or
	// the check's message for anything else (a schema not at the binary's
	// migration). An outage's detail (addresses, user names) is logged,
	// not shown.
	Database string `json:"database"`
}

// healthz: GET /healthz runs Config.Health (in pbem serve: a query on the
// database and a check of its schema version) and answers 200
// {"status":"ok","database":"ok"}, or 503 with Retry-After and
// {"status":"unavailable","database":REASON}.
func (s *Server) healthz(c echo.Context) error {
	if s.cfg.Health != nil {
		if err := s.cfg.Health(c.Request().Context()); err != nil {
			s.log.WarnContext(c.Request().Context(), "health check failed", "err", err)
			reason := outage(err)
			if reason == "" {
				reason = err.Error()
			}
			setRetryAfter(c, codeUnavailable)
			return c.JSON(http.StatusServiceUnavailable, healthBody{Status: "unavailable", Database: reason})
		}
	}
	return c.JSON(http.StatusOK, healthBody{Status: "ok", Database: "ok"})
}
