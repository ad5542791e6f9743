package api

import (
	"errors"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events"
	"pbem/events/play"
)

// oldLinkError is the refusal of an older play link whose page says what
// became of it (play.OldLink): a player who was replaced is told so,
// not sent looking for a newer link they never got.
type oldLinkError struct {
	link *play.OldLink
	err  error // the refusal (events.CodeUnauthorized)
}

func (e *oldLinkError) Error() string { return e.err.Error() }
func (e *oldLinkError) Unwrap() error { return e.err }

// oldLink is err, the refusal of token for game id, with what became of
// token when it is an older link of the game; any other err as it is.
func (p *pages) oldLink(c echo.Context, id, token string, err error) error {
	if play.ErrorCode(err) != events.CodeUnauthorized {
		return err
	}
	o, lerr := p.svc.OldLinkOf(c.Request().Context(), id, token)
	if lerr != nil || o == nil {
		return err
	}
	return &oldLinkError{link: o, err: err}
}

// oldLinkText is the message and detail of an old link's error page.
func (p *pages) oldLinkText(c echo.Context, cat i18n.Printer, err error) (msg, detail string, ok bool) {
	var ol *oldLinkError
	if !errors.As(err, &ol) {
		return "", "", false
	}
	at := tellTime(cat, ol.link.At, p.svc.Now(), location(c)).Text
	if ol.link.Replaced() {
		return "err.link_replaced", cat.T("err.link_replaced_detail", ol.link.Name, ol.link.NewName, at), true
	}
	return "err.unauthorized", cat.T("err.link_newer_detail", at), true
}
