package api

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/events"
	"pbem/events/play"
)

type resendBody struct {
	Seat *int `json:"seat"`
}

// seatBotBody is the body of admin/seat: the seat and the level of the bot
// that takes it, "" to hand it back to its person.
type seatBotBody struct {
	Seat *int    `json:"seat"`
	Bot  *string `json:"bot"`
}

type extendBody struct {
	By string `json:"by"`
}

type emptyBody struct{}

// adminResend: POST /api/v1/games/:id/admin/resend {"seat":N}.
func (s *Server) adminResend(c echo.Context) error {
	var b resendBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Seat == nil {
		return events.Errorf(events.CodeInvalid, "seat: give the seat whose link to resend")
	}
	return s.adminMail(c, toSeat(*b.Seat), func(id, tok string) (*play.Summary, error) {
		return s.svc.ResendLink(c.Request().Context(), id, tok, *b.Seat)
	})
}

// adminRevoke: POST /api/v1/games/:id/admin/revoke revokes the admin
// link the bearer token is (and every earlier one) and emails a new one to
// the organiser; the answer holds no token. Charged like an invitation.
func (s *Server) adminRevoke(c echo.Context) error {
	var b emptyBody
	if err := decode(c, &b, true); err != nil {
		return err
	}
	return s.adminMail(c, toOrganiser, func(id, tok string) (*play.Summary, error) {
		return s.svc.RevokeAdminLink(c.Request().Context(), id, tok)
	})
}

// adminSeat: POST /api/v1/games/:id/admin/seat {"seat":N,"bot":"normal"}
// hands seat N to a bot; {"seat":N,"bot":""} hands it back to its person.
func (s *Server) adminSeat(c echo.Context) error {
	var b seatBotBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if b.Seat == nil {
		return events.Errorf(events.CodeInvalid, "seat: give the seat to hand to a bot or back")
	}
	if b.Bot == nil {
		return events.Errorf(events.CodeInvalid, "bot: give easy, normal or strong, or \"\" to hand the seat back")
	}
	return s.admin(c, func(id, tok string) (*play.Summary, error) {
		return s.svc.SeatBot(c.Request().Context(), id, tok, *b.Seat, *b.Bot)
	})
}

// adminExtend: POST /api/v1/games/:id/admin/extend {"by":"24h"}.
func (s *Server) adminExtend(c echo.Context) error {
	var b extendBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	by, err := parseDuration("by", b.By)
	if err != nil {
		return err
	}
	if by == 0 {
		return events.Errorf(events.CodeInvalid, "by: give a duration like \"24h\"")
	}
	return s.admin(c, func(id, tok string) (*play.Summary, error) {
		return s.svc.Extend(c.Request().Context(), id, tok, by)
	})
}

// adminAbort: POST /api/v1/games/:id/admin/abort.
func (s *Server) adminAbort(c echo.Context) error {
	return s.adminPlain(c, s.svc.Abort)
}

// pauseBody is the optional body of a pause: the reason shown to the players.
type pauseBody struct {
	Reason string `json:"reason"`
}

// adminPause: POST /api/v1/games/:id/admin/pause [{"reason":"..."}].
func (s *Server) adminPause(c echo.Context) error {
	var b pauseBody
	if err := decode(c, &b, true); err != nil {
		return err
	}
	return s.admin(c, func(id, tok string) (*play.Summary, error) {
		return s.svc.Pause(c.Request().Context(), id, tok, b.Reason)
	})
}

// adminResume: POST /api/v1/games/:id/admin/resume.
func (s *Server) adminResume(c echo.Context) error {
	return s.adminPlain(c, s.svc.Resume)
}

type adminAction func(ctx context.Context, id, token string) (*play.Summary, error)

func (s *Server) adminPlain(c echo.Context, f adminAction) error {
	var b emptyBody
	if err := decode(c, &b, true); err != nil {
		return err
	}
	return s.admin(c, func(id, tok string) (*play.Summary, error) {
		return f(c.Request().Context(), id, tok)
	})
}

// adminMail is admin for the actions that email the people to names:
// they are charged to the limits (chargeAdminMail), 429 when over.
func (s *Server) adminMail(c echo.Context, to mailTo, f func(id, token string) (*play.Summary, error)) error {
	return s.admin(c, func(id, tok string) (sm *play.Summary, err error) {
		err = chargeAdminMail(c, s.svc, s.limit, id, tok, to, func() error {
			sm, err = f(id, tok)
			return err
		})
		return sm, err
	})
}

func (s *Server) admin(c echo.Context, f func(id, token string) (*play.Summary, error)) error {
	tok := bearer(c)
	if tok == "" {
		return events.Errorf(events.CodeUnauthorized, "give the game's admin token as Authorization: Bearer TOKEN")
	}
	sm, err := f(c.Param("id"), tok)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sm)
}
