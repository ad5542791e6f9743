package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/projections"
)

// The JSON of the records (issue #46): GET /api/v1/me/record and GET
// /api/v1/leaderboards/{game}. Addresses never appear: a record is its
// own person's, and a leaderboard names people by name.

// recordBody is the answer of GET /api/v1/me/record: the session's
// address's record, and whether it is listed on the leaderboards.
type recordBody struct {
	*projections.PersonRecord
	Listed bool `json:"listed_on_leaderboards"`
}

// myRecord: GET /api/v1/me/record (Authorization: Bearer SESSION).
func (s *Server) myRecord(c echo.Context) error {
	ctx := c.Request().Context()
	r, err := s.svc.MyRecord(ctx, bearer(c))
	if err != nil {
		return err
	}
	listed, err := s.svc.Listed(ctx, bearer(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, recordBody{PersonRecord: r, Listed: listed})
}

// leaderboardBody is the answer of GET /api/v1/leaderboards/{game}.
type leaderboardBody struct {
	Game    string               `json:"game"`
	Players []projections.Rating `json:"players"`
}

// getLeaderboard: GET /api/v1/leaderboards/{game}: the bots and the people
// who chose to be listed, best first.
func (s *Server) getLeaderboard(c echo.Context) error {
	game := c.Param("game")
	rs, err := s.svc.Leaderboard(c.Request().Context(), game)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, leaderboardBody{Game: game, Players: rs})
}
