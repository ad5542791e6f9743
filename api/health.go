package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// healthz: GET /healthz, 200 {"status":"ok"} when Config.Health passes,
// else 503 with the error code "unavailable".
func (s *Server) healthz(c echo.Context) error {
	if s.cfg.Health != nil {
		if err := s.cfg.Health(c.Request().Context()); err != nil {
			s.log.Warn("health check failed", "err", err)
			return c.JSON(http.StatusServiceUnavailable, ErrorBody{Error: ErrorDetail{Code: "unavailable", Message: "not ready"}})
		}
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}
