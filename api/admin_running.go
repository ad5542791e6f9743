package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/events"
	"pbem/events/play"
)

// seatEmailBody is a corrected address, or a replacing player.
type seatEmailBody struct {
	Seat  *int   `json:"seat"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// adminEmail: POST /api/v1/games/:id/admin/email {"seat","email"}: the
// seat's address is corrected and it gets a new link (the old one stops
// working).
func (s *Server) adminEmail(c echo.Context) error {
	var b seatEmailBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Seat == nil {
		return events.FieldErrorf(events.CodeInvalid, "seat", "seat: give the seat whose address to correct")
	}
	return s.adminMail(c, toAddress(b.Email), func(id, tok string) (*play.Summary, error) {
		return s.svc.ChangeEmail(c.Request().Context(), id, tok, *b.Seat, b.Email)
	})
}

// adminReplace: POST /api/v1/games/:id/admin/replace {"seat","name","email"}:
// a new person takes the seat, with a new link and an invitation.
func (s *Server) adminReplace(c echo.Context) error {
	var b seatEmailBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Seat == nil {
		return events.FieldErrorf(events.CodeInvalid, "seat", "seat: give the seat to give to a new player")
	}
	return s.adminMail(c, toReplaced(*b.Seat, b.Email), func(id, tok string) (*play.Summary, error) {
		return s.svc.ReplacePlayer(c.Request().Context(), id, tok, *b.Seat, b.Name, b.Email)
	})
}

// adminRematch: POST /api/v1/games/:id/admin/rematch: once the game has
// ended, a new game of the same seats (bots included) and options (201, as
// a confirmation answers), charged to the organiser's and the client's
// limits; the rematch already started, if any (200, charged nothing).
func (s *Server) adminRematch(c echo.Context) error {
	var b emptyBody
	if err := decode(c, &b, true); err != nil {
		return err
	}
	tok := bearer(c)
	if tok == "" {
		return events.Errorf(events.CodeUnauthorized, "give the game's admin token as Authorization: Bearer TOKEN")
	}
	cg, err := s.rematch(c, c.Param("id"), tok)
	if err != nil {
		return err
	}
	out := createdBody{ID: cg.ID, AdminToken: cg.AdminToken, Seats: []play.SeatName{}}
	for i, n := range cg.Game.Players {
		out.Seats = append(out.Seats, play.SeatName{Seat: i, Name: n})
	}
	if cg.Again {
		return c.JSON(http.StatusOK, out)
	}
	return c.JSON(http.StatusCreated, out)
}

// rematch checks the admin token, charges the limits and starts the rematch.
func (s *Server) rematch(c echo.Context, id, tok string) (*play.Confirmed, error) {
	ctx := c.Request().Context()
	a, err := s.svc.Authenticate(ctx, id, tok)
	if err != nil {
		return nil, err
	}
	if !a.Admin {
		return nil, events.Errorf(events.CodeUnauthorized, "this is not the admin token of game %s", id)
	}
	ch, err := chargeRematch(c, s.svc, s.limit, id)
	if err != nil {
		return nil, err
	}
	cg, err := s.svc.Rematch(ctx, id, tok)
	if err != nil || cg.Again {
		ch.undo()
	}
	return cg, err
}

// adminWaiting: GET /api/v1/games/:id/admin/waiting: whom the game waits
// for, and since when.
func (s *Server) adminWaiting(c echo.Context) error {
	tok := bearer(c)
	a, err := s.svc.Authenticate(c.Request().Context(), c.Param("id"), tok)
	if err != nil {
		return err
	}
	if !a.Admin {
		return events.Errorf(events.CodeUnauthorized, "give the game's admin token as Authorization: Bearer TOKEN")
	}
	w, err := s.svc.WaitingFor(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"waiting": w})
}
