package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// healthz: GET /healthz, 200 {"status":"ok"} when Config.Health passes,
// else 503 {"status":"unavailable"}.
func (s *Server) healthz(c echo.Context) error {
	if s.cfg.Health != nil {
		if err := s.cfg.Health(c.Request().Context()); err != nil {
			s.log.WarnContext(c.Request().Context(), "health check failed", "err", err)
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		}
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}
