package api

import (
	"net/http"
	"pbem/events"
	"pbem/events/tokens"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/events/play"
)

// confirmPage is the organiser's confirmation page.
type confirmPage struct {
	base
	Token       string
	Done, Again bool
	// Recap is the game the button creates (nil: the link is unknown or
	// expired; the button then answers so).
	Recap *confirmRecap
}

// confirmForm: GET /confirm/:token shows the proposed game and one button
// (a GET changes nothing: mail scanners follow links).
func (p *pages) confirmForm(c echo.Context) error {
	lang := pickLang(c, "")
	cat := p.cat(lang)
	d := confirmPage{base: p.base(c, lang), Token: c.Param("token")}
	d.Title = cat.T("confirm.title")
	if r, err := p.svc.ProposalOf(c.Request().Context(), d.Token); err == nil {
		d.Recap = p.recap(c, cat, r)
		if p.svc.KeepsRecords() {
			words, err := p.reliabilityOf(c, cat, r)
			if err != nil {
				return err
			}
			for i := range d.Recap.Players {
				d.Recap.Players[i].Reliability = words[strings.ToLower(strings.TrimSpace(d.Recap.Players[i].Email))]
			}
		}
	} else if play.ErrorCode(err) != events.CodeUnauthorized {
		return err
	}
	return p.render(c, http.StatusOK, "confirm", d)
}

// confirm: POST /confirm/:token creates the game (invitations and the
// admin link go out), or sends the admin link again once it exists.
func (p *pages) confirm(c echo.Context) error {
	cf, err := p.svc.Confirm(c.Request().Context(), c.Param("token"), p.limit.adminResend)
	if err != nil {
		return err
	}
	lang := pickLang(c, "")
	d := confirmPage{base: p.base(c, lang), Token: c.Param("token"), Done: true, Again: cf.Again}
	d.Title = p.cat(lang).T("confirm.title")
	return p.render(c, http.StatusOK, "confirm", d)
}

// blockPage is the page that refuses (or accepts again) invitations.
type blockPage struct {
	base
	Token, Email string
	Blocked      bool
}

// blockForm: GET /mail/block?token=T[&lang=L] shows the address's choice
// with one button.
func (p *pages) blockForm(c echo.Context) error {
	tok := c.QueryParam("token")
	email, err := tokens.VerifyBlock(p.cfg.Secret, tok)
	if err != nil {
		return errBadLink
	}
	blocked, err := p.svc.IsBlocked(c.Request().Context(), email)
	if err != nil {
		return err
	}
	lang := pickLang(c, "")
	d := blockPage{base: p.base(c, lang), Token: tok, Email: email, Blocked: blocked}
	d.Title = p.cat(lang).T("block.title")
	return p.render(c, http.StatusOK, "block", d)
}

// block: POST /mail/block (form: token, action=block|unblock). The signed
// token is the proof of the address.
func (p *pages) block(c echo.Context) error {
	tok := c.FormValue("token")
	email, err := tokens.VerifyBlock(p.cfg.Secret, tok)
	if err != nil {
		return errBadLink
	}
	on := c.FormValue("action") != "unblock"
	if err := p.svc.SetBlocked(c.Request().Context(), email, on); err != nil {
		return err
	}
	lang := pickLang(c, "")
	d := blockPage{base: p.base(c, lang), Token: tok, Email: email, Blocked: on}
	d.Title = p.cat(lang).T("block.title")
	return p.render(c, http.StatusOK, "block", d)
}
