package api

import (
	"github.com/labstack/echo/v4"

	"pbem/events"
	"pbem/events/play"
)

// takebackBody is the body of POST /api/v1/games/:id/takeback.
type takebackBody struct {
	Version *int64 `json:"version"`
}

// postTakeback: POST /api/v1/games/:id/takeback. The seat of the bearer
// token takes back its move that produced the given version; the answer
// is its new view (play.(*Service).Takeback says when a move can be taken
// back: 409 otherwise, 403 for another seat's move).
func (s *Server) postTakeback(c echo.Context) error {
	id, token := c.Param("id"), bearer(c)
	if token == "" {
		return events.Errorf(events.CodeUnauthorized, "give the token of your play link as Authorization: Bearer TOKEN")
	}
	var b takebackBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Version == nil || *b.Version < 1 {
		return events.Errorf(events.CodeInvalid, "version: give the version your move produced")
	}
	v, err := s.svc.Takeback(c.Request().Context(), id, token, play.TakebackRequest{Version: *b.Version, RequestID: requestID(c)})
	if err != nil {
		return err
	}
	return answerView(c, v)
}
