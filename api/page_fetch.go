package api

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"pbem/events/play"
)

// The forms of a seat's play page (a move, its confirmation, a take-back,
// a chat line) answer 303 to the play page with a notice (?n=), so that
// a browser without script shows the fresh page and a reload does not post
// again. That costs a phone two round trips before it can draw anything
// (the POST, then the GET of the page).
//
// With script, app.js posts these forms itself (fetch) with the request
// header fetchHeader, and the answer is the page the redirect would have
// led to: 200, the same HTML as the GET, with Content-Location naming the
// URL the redirect would have given (app.js puts it in the address bar with
// history.replaceState and swaps in the page's [data-live] regions, as the
// live update does). One round trip. A custom header, not Sec-Fetch-Mode:
// browsers send Sec-Fetch-* only to https and localhost, and the header
// says plainly what the client asks for. It changes the form of the answer
// only: the CSRF token, the cross-origin check and every other check run
// as for any POST, and an error is the same error page with its status.

// fetchHeader marks a play page's form posted by app.js: answer with the
// page, not a redirect to it.
const fetchHeader = "X-Pbem-Fetch"

// backToPlay ends a form posted from the play page of the seat of tok:
// a 303 to the play page with notice (and #fragment, if any), or, to a
// fetch (fetchHeader), that page itself.
func (p *pages) backToPlay(c echo.Context, id, tok, notice, fragment string) error {
	to := "/play/" + url.PathEscape(id) + "?n=" + url.QueryEscape(notice)
	if c.Request().Header.Get(fetchHeader) == "" {
		if fragment != "" {
			to += "#" + fragment
		}
		return c.Redirect(http.StatusSeeOther, to)
	}
	d, err := p.playFor(c, id, tok, notice)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Location", to)
	return p.render(c, http.StatusOK, "play", d)
}

// playFor is the play page of the seat of tok with notice (a form's
// answer, "" for none): what GET /play/:game?n=notice shows, with the
// visit recorded (the seat's time zone and "Since your last turn").
func (p *pages) playFor(c echo.Context, id, tok, notice string) (*playPage, error) {
	ctx := c.Request().Context()
	sp, err := p.svc.SeatPage(ctx, id, tok)
	if err != nil {
		return nil, err
	}
	d, err := p.playData(c, sp, tok, notice)
	if err != nil {
		return nil, err
	}
	p.recordZone(c, id, sp.View.Seat)
	names := seatNames(sp.Summary)
	from := d.Version
	if d.CatchUp != nil {
		from = d.CatchUp.From
	}
	cat := p.cat(d.Lang)
	if d.Chat, err = chatLines(ctx, p.svc, id, tok, sp.View.Seat, names, from, cat, location(c)); err != nil {
		return nil, err
	}
	d.ChatMax = play.MaxChatRunes
	return d, nil
}
