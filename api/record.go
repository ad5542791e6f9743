package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/events"
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

// listedRequest is the body of PUT /api/v1/me/leaderboards. Listed is a
// pointer so that a body without it is refused, not read as false.
type listedRequest struct {
	Listed *bool `json:"listed"`
}

// listedBody is the answer of PUT /api/v1/me/leaderboards: the choice as
// it now stands, under the name GET /api/v1/me/record gives it.
type listedBody struct {
	Listed bool `json:"listed_on_leaderboards"`
}

// putListed: PUT /api/v1/me/leaderboards (Authorization: Bearer SESSION)
// with {"listed": true|false}: the JSON twin of My games' form. The
// choice is the address's, on every game's leaderboard at once, as the
// form's is.
func (s *Server) putListed(c echo.Context) error {
	var req listedRequest
	if err := decode(c, &req, false); err != nil {
		return err
	}
	if req.Listed == nil {
		return events.FieldErrorf(events.CodeInvalid, "listed", "listed: give true or false")
	}
	ctx := c.Request().Context()
	if err := s.svc.SetListed(ctx, bearer(c), *req.Listed); err != nil {
		return err
	}
	listed, err := s.svc.Listed(ctx, bearer(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, listedBody{Listed: listed})
}
