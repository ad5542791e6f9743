package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/events"
	"pbem/events/play"
)

// Notices of a take-back, by the redirect's ?n=.
const (
	noticeTakenBack    = "takenback"
	noticeTakebackLate = "takeback_late"
)

// confirmAsk is the ?confirm= of a move button whose move cannot be taken
// back: the form's post shows the move for confirmation instead of
// playing it (the confirmation's own post plays it).
const confirmAsk = "ask"

// takeback: POST /play/:game/takeback (form: csrf, version). It takes back
// the seat's move that produced version and answers 303 to the play page,
// with a notice of what happened (or that page, to a fetch: page_fetch.go).
func (p *pages) takeback(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("game")
	tok, err := p.tokenPost(c, seatCookie)
	if err != nil {
		return err
	}
	ver, err := formVersion(c, 1, "of the move to take back")
	if err != nil {
		return err
	}
	_, err = p.svc.Takeback(ctx, id, tok, play.TakebackRequest{Version: ver, RequestID: requestID(c)})
	notice := noticeTakenBack
	switch play.ErrorCode(err) {
	case "":
	case events.CodeConflict, events.CodeForbidden:
		notice = noticeTakebackLate
	default:
		return err
	}
	return p.backToPlay(c, id, tok, notice, "")
}

// askConfirm answers the first tap on a move that cannot be taken back:
// the play page with that move to confirm (a second tap plays it) and
// nothing played. A move the page no longer lists (the game moved on)
// sends back to the fresh page.
func (p *pages) askConfirm(c echo.Context, id, tok string, ver int64, mv string) error {
	d, err := p.playFor(c, id, tok, "")
	if err != nil {
		return err
	}
	if d.Version == ver {
		for _, g := range d.Groups {
			for i := range g.Moves {
				if g.Moves[i].JSON == mv {
					d.Confirm = &g.Moves[i]
				}
			}
		}
	}
	if d.Confirm == nil {
		return p.backToPlay(c, id, tok, noticeStale, "")
	}
	d.cardMoves() // the cards offer nothing while a move waits for its confirmation
	return p.render(c, http.StatusOK, "play", d)
}
