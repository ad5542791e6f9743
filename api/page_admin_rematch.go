package api

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
)

// rematch starts the rematch of game id from its admin page and opens the
// new game's admin page (its admin token in that page's cookie; the link
// is emailed to the organiser too).
func (p *pages) rematch(c echo.Context, id, tok string) error {
	ctx := c.Request().Context()
	org, err := p.svc.Organiser(ctx, id)
	if err != nil {
		return err
	}
	sm, err := p.svc.Summary(ctx, id)
	if err != nil {
		return err
	}
	ch, err := p.limit.proposal(clientIP(c), org.Email, len(sm.Seats))
	if err != nil {
		return err
	}
	cg, err := p.svc.Rematch(ctx, id, tok)
	if err != nil {
		ch.undo()
		return err
	}
	c.SetCookie(&http.Cookie{Name: adminCookie, Value: cg.AdminToken, Path: "/admin/" + cg.ID, MaxAge: cookieAge, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
	return c.Redirect(http.StatusSeeOther, "/admin/"+url.PathEscape(cg.ID)+"?n=done")
}
