package api

import (
	"crypto/hmac"
	"net/http"
	"net/url"
	"pbem/events"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events/tokens"
)

// Cookies of the pages. A seat's cookie holds its play-link token and is
// scoped to /play/{game}; the admin's holds the admin token and is scoped to
// /admin/{game}. Both are HttpOnly and SameSite=Lax, Secure under https.
const (
	seatCookie  = "pbem_seat"
	adminCookie = "pbem_admin"
	// cookieAge keeps a link's cookie for a long game (a new link replaces it).
	cookieAge = 180 * 24 * 3600
)

// errCSRF is the error of a POST without a valid CSRF token.
var errCSRF = events.Errorf(events.CodeForbidden, "missing or wrong CSRF token")

// swapToken handles a ?token= in a page's URL: it checks the token with
// valid, stores it in the cookie name scoped to path, and answers 303 to the
// same URL without the token. swapped is false when the URL has no token.
// An invalid token is an events.CodeUnauthorized error (no cookie is set).
func (p *pages) swapToken(c echo.Context, name, path string, valid func(token string) error) (swapped bool, err error) {
	q := c.Request().URL.Query()
	if !q.Has("token") {
		return false, nil
	}
	tok := q.Get("token")
	if err := valid(tok); err != nil {
		return true, err
	}
	c.SetCookie(&http.Cookie{Name: name, Value: tok, Path: path, MaxAge: cookieAge, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
	q.Del("token")
	u := url.URL{Path: c.Request().URL.Path, RawQuery: q.Encode()}
	return true, c.Redirect(http.StatusSeeOther, u.String())
}

// secure reports whether cookies get the Secure flag.
func (p *pages) secure(c echo.Context) bool { return p.cfg.Secure || c.Scheme() == "https" }

// cookieToken returns the token in cookie name, or an events.CodeUnauthorized error.
func cookieToken(c echo.Context, name string) (string, error) {
	ck, err := c.Cookie(name)
	if err != nil || ck.Value == "" {
		return "", events.Errorf(events.CodeUnauthorized, "open the game with the link of your email")
	}
	return ck.Value, nil
}

// csrfFor is the CSRF token of a session (events/tokens.CSRF). A form
// carries it; a POST must carry the one of its cookie.
func (p *pages) csrfFor(session string) string { return tokens.CSRF(p.cfg.Secret, session) }

// checkCSRF checks the form's csrf field against the session.
func (p *pages) checkCSRF(c echo.Context, session string) error {
	got := c.FormValue("csrf")
	if got == "" || !hmac.Equal([]byte(got), []byte(p.csrfFor(session))) {
		return errCSRF
	}
	return nil
}

// tokenPost checks a form posted from a seat's or the admin's page: it
// returns the token of cookie (seatCookie, adminCookie) once the form's
// csrf field matches it.
func (p *pages) tokenPost(c echo.Context, cookie string) (string, error) {
	tok, err := cookieToken(c, cookie)
	if err != nil {
		return "", err
	}
	return tok, p.checkCSRF(c, tok)
}

// lobbyPost checks a form posted from a page of the lobby's session (the
// lobby, sign-in, My games): it returns the session once the form's csrf
// field matches it.
func (p *pages) lobbyPost(c echo.Context) (string, error) {
	ck, err := c.Cookie(lobbyCookie)
	if err != nil {
		return "", errCSRF
	}
	return ck.Value, p.checkCSRF(c, ck.Value)
}

// formLang is the language of the page a form was posted from (its
// page_lang field), else as pickLang chooses.
func formLang(c echo.Context) string {
	if lang := c.FormValue("page_lang"); i18n.Supported(lang) {
		return lang
	}
	return pickLang(c, "")
}
