package api

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
)

// Rematches from the pages: the organiser's admin page and the players'
// end page (the play page of an ended game) offer one once the game has
// ended. Either starts the rematch, or finds the one already started, and
// opens it: the organiser on the new game's admin page, a player on their
// own seat of the new game (the same seat: its cookie is set here, and
// the invitation email carries the same link). A new game is charged to
// the organiser's and the client's limits, as a proposal is; opening the
// one already started is charged nothing.

// rematch starts the rematch of game id from its admin page and opens the
// new game's admin page (its admin token in that page's cookie; the link
// is emailed to the organiser too).
func (p *pages) rematch(c echo.Context, id, tok string) error {
	ch, err := p.chargeRematch(c, id)
	if err != nil {
		return err
	}
	cg, err := p.svc.Rematch(c.Request().Context(), id, tok)
	if err != nil || cg.Again {
		ch.undo()
	}
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: adminCookie, Value: cg.AdminToken, Path: "/admin/" + cg.ID, MaxAge: cookieAge, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
	return c.Redirect(http.StatusSeeOther, "/admin/"+url.PathEscape(cg.ID)+"?n=done")
}

// seatRematch: POST /play/:game/rematch (form: csrf), from the end page:
// the rematch, opened on the player's own seat.
func (p *pages) seatRematch(c echo.Context) error {
	id := c.Param("game")
	tok, err := p.tokenPost(c, seatCookie)
	if err != nil {
		return err
	}
	ch, err := p.chargeRematch(c, id)
	if err != nil {
		return err
	}
	r, err := p.svc.RematchAs(c.Request().Context(), id, tok)
	if err != nil || r.Again {
		ch.undo()
	}
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: seatCookie, Value: r.Token, Path: "/play/" + r.ID, MaxAge: cookieAge, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
	return c.Redirect(http.StatusSeeOther, "/play/"+url.PathEscape(r.ID))
}

// chargeRematch charges a rematch of game id (chargeRematch).
func (p *pages) chargeRematch(c echo.Context, id string) (*charge, error) {
	return chargeRematch(c, p.svc, p.limit, id)
}
