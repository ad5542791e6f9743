package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/engine"
	"pbem/events"
	"pbem/events/play"
)

// proposedBody is the answer to a proposed game.
type proposedBody struct {
	ID        string    `json:"id"`
	Status    string    `json:"status"`
	ExpiresAt time.Time `json:"expires_at"`
	Message   string    `json:"message"`
}

// confirmedBody is the answer to a confirmation.
type confirmedBody struct {
	createdBody
	// Again is true when the game had been confirmed before: only the
	// admin link was emailed again.
	Again bool `json:"again"`
}

// confirmGame: POST /api/v1/confirm/:token. The organiser's confirmation
// creates the game and sends the invitations and the admin link (201);
// once confirmed, the same link sends the admin link again (200), within
// the limits (429), to the organiser's address only: the answer holds no
// admin token then, so that whoever else holds the confirmation link
// (valid 48 hours) cannot take the game's administration with it.
func (s *Server) confirmGame(c echo.Context) error {
	cf, err := s.confirm(c)
	if err != nil {
		return err
	}
	out := confirmedBody{createdBody: createdBody{ID: cf.ID, AdminToken: cf.AdminToken, Seats: []play.SeatName{}}, Again: cf.Again}
	if cf.Again {
		out.AdminToken = ""
	}
	for i, n := range cf.Game.Players {
		sn := play.SeatName{Seat: i, Name: n}
		if st := cf.Game.SeatAt(i); st != nil {
			sn.Bot = st.Bot
		}
		out.Seats = append(out.Seats, sn)
	}
	status := http.StatusCreated
	if cf.Again {
		status = http.StatusOK
	}
	return c.JSON(status, out)
}

// confirm runs a confirmation, charging a repeat (an admin link sent
// again) to the game's budget.
func (s *Server) confirm(c echo.Context) (*play.Confirmed, error) {
	cf, err := s.svc.Confirm(c.Request().Context(), c.Param("token"), func(id string) error { return s.limit.adminResend(id) })
	if err != nil {
		return nil, err
	}
	return cf, nil
}

// getSettings: GET /api/v1/settings/:game?lang=L, what a game lets its
// creator choose (player range, options with their labels in L).
func (s *Server) getSettings(c echo.Context) error {
	st, ok := s.svc.Settings(c.Param("game"), c.QueryParam("lang"))
	if !ok {
		return events.Errorf(events.CodeNotFound, "unknown game %q", c.Param("game"))
	}
	if st.Options == nil {
		st.Options = []engine.OptionSpec{}
	}
	return c.JSON(http.StatusOK, st)
}
