package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/projections"
)

// sessionCookie holds a "My games" session token (HttpOnly, path /).
const sessionCookie = "pbem_session"

// signinAnswer is the one answer to a sign-in request, whether the
// address has games or not.
const signinAnswer = "if this address has games on this server, a sign-in link is on its way to it"

type signinBody struct {
	Email    string `json:"email"`
	Language string `json:"language"`
}

type sessionBody struct {
	Session string `json:"session"`
}

type myGamesBody struct {
	Email string               `json:"email"`
	Games []projections.MyGame `json:"games"`
}

// requestSignin: POST /api/v1/signin {"email", "language"}. It answers
// 202 and the same body for every well-formed address (429 over the
// limits, per IP and per address alike).
//
// Both sign-in routes refuse a browser's request from another site (403):
// they are not for other sites' pages to call.
func (s *Server) requestSignin(c echo.Context) error {
	if err := s.cop.Check(c.Request()); err != nil {
		return errCrossOrigin
	}
	var b signinBody
	if err := decode(c, &b, false); err != nil {
		return err
	}
	if err := s.signinRequest(c, b.Email, b.Language); err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, map[string]string{"status": "accepted", "message": signinAnswer})
}

// signinRequest charges the limits and asks the service for a link; a
// request that sends none (refused, or failing with the database down)
// gives its charge back.
func (s *Server) signinRequest(c echo.Context, email, lang string) error {
	if !i18n.Supported(lang) {
		lang = "en"
	}
	ch, err := s.limit.signinRequest(clientIP(c), email)
	if err != nil {
		return err
	}
	if err := s.svc.RequestSignin(c.Request().Context(), email, lang); err != nil {
		ch.undo()
		return err
	}
	return nil
}

// signIn: POST /api/v1/signin/:token uses a sign-in link once and answers
// the session's token; 401 for an unknown, used or expired link. Like the
// rest of the JSON API it sets no cookie (the page /signin/:token does).
func (s *Server) signIn(c echo.Context) error {
	if err := s.cop.Check(c.Request()); err != nil {
		return errCrossOrigin
	}
	sess, err := s.svc.SignIn(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sessionBody{Session: sess})
}

// myGames: GET /api/v1/me/games, with the session as Authorization:
// Bearer. Like the rest of the JSON API it reads no cookie, so that
// another site cannot make a browser ask it.
func (s *Server) myGames(c echo.Context) error {
	email, gs, err := s.svc.MyGames(c.Request().Context(), bearer(c))
	if err != nil {
		return err
	}
	if gs == nil {
		gs = []projections.MyGame{}
	}
	return c.JSON(http.StatusOK, myGamesBody{Email: email, Games: gs})
}

// setSession stores the session token in its cookie.
func setSession(c echo.Context, sess string, secure bool) {
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: sess, Path: "/", MaxAge: 30 * 24 * 3600, HttpOnly: true,
		Secure: secure || c.Scheme() == "https", SameSite: http.SameSiteLaxMode})
}

// clearSession removes the session cookie.
func clearSession(c echo.Context) {
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
}

// sessionOf is a page request's session token: the bearer token, else the
// cookie (the JSON API reads only the bearer token).
func sessionOf(c echo.Context) string {
	if t := bearer(c); t != "" {
		return t
	}
	if ck, err := c.Cookie(sessionCookie); err == nil {
		return ck.Value
	}
	return ""
}
