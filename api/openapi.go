package api

import (
	_ "embed"
	"net/http"

	"github.com/labstack/echo/v4"
)

// openAPIDoc is the OpenAPI 3 description of /api/v1 (openapi.json). A test
// checks that it documents exactly the routes the server has.
//
//go:embed openapi.json
var openAPIDoc []byte

// openAPI: GET /api/v1/openapi.json.
func (s *Server) openAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, openAPIDoc)
}
