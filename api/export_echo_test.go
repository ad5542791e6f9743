package api

import "github.com/labstack/echo/v4"

// Echo is the server's echo instance, for the tests that list its routes
// or add a route that panics.
func (s *Server) Echo() *echo.Echo { return s.echo }
