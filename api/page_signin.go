package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/events"
	"pbem/events/play"
	"pbem/projections"
)

// errBadLink is the error of a signed link that does not verify.
var errBadLink = events.Errorf(events.CodeUnauthorized, "this link is not valid")

// signinPage is the sign-in form (and its answer).
type signinPage struct {
	base
	Sent  bool
	Error string
}

// signinUsePage is the one-button page of a sign-in link.
type signinUsePage struct {
	base
	Token string
}

// myGamesPage lists the games of the signed-in address.
type myGamesPage struct {
	base
	Email string
	Games []myGameRow
	// Organised are the games this address organises, each with its
	// admin page's link.
	Organised                        []organisedRow
	DeadlineWord, LastWord, OpenWord string
	// Record is the address's record (issue #46).
	Record *recordView
	// Away is the address's away (issue #43).
	Away *awayView
}

// organisedRow is a game the address organises, in "My games".
type organisedRow struct {
	ID, Game, Players, Status string
}

// myGameRow is one game of "My games", ready to show.
type myGameRow struct {
	ID, Game, Players string
	Turn, Deadline    string
	Status, Result    string
	LastMove          string
	// Ended marks a finished or aborted game; BotPlayed a seat the
	// organiser handed to a bot (it has no turn of its own).
	Ended, BotPlayed bool
}

// signinForm: GET /signin.
func (p *pages) signinForm(c echo.Context) error {
	sess, err := p.lobbySession(c)
	if err != nil {
		return err
	}
	lang := pickLang(c, "")
	d := signinPage{base: p.base(c, lang)}
	d.Title, d.CSRF = p.cat(lang).T("signin.title"), p.csrfFor(sess)
	return p.render(c, http.StatusOK, "signin", d)
}

// signinRequest: POST /signin (form: csrf, email). The answer is the same
// whether the address has games or not.
func (p *pages) signinRequest(c echo.Context) error {
	session, err := p.lobbyPost(c)
	if err != nil {
		return err
	}
	lang := formLang(c)
	d := signinPage{base: p.base(c, lang), Sent: true}
	d.Title, d.CSRF = p.cat(lang).T("signin.title"), p.csrfFor(session)
	email := c.FormValue("email")
	ch, err := p.limit.signinRequest(clientIP(c), email)
	if err != nil {
		return err
	}
	if err := p.svc.RequestSignin(c.Request().Context(), email, lang); err != nil {
		ch.undo() // no link was sent (a bad address, the database down)
		if play.ErrorCode(err) != events.CodeInvalid {
			return err
		}
		d.Sent, d.Error = false, p.cat(lang).T("lobby.err.email")
		return p.render(c, http.StatusBadRequest, "signin", d)
	}
	return p.render(c, http.StatusOK, "signin", d)
}

// signinUse: GET /signin/:token shows one button: the link is single-use,
// and mail scanners must not spend it.
func (p *pages) signinUse(c echo.Context) error {
	lang := pickLang(c, "")
	d := signinUsePage{base: p.base(c, lang), Token: c.Param("token")}
	d.Title = p.cat(lang).T("signin.title")
	return p.render(c, http.StatusOK, "signin_use", d)
}

// signinDo: POST /signin/:token uses the link, sets the session cookie
// and goes to My games.
func (p *pages) signinDo(c echo.Context) error {
	sess, err := p.svc.SignIn(c.Request().Context(), c.Param("token"))
	if err != nil {
		return err
	}
	setSession(c, sess, p.cfg.Secure)
	return c.Redirect(http.StatusSeeOther, "/me")
}

// myGames: GET /me, the signed-in address's games (the sign-in form
// without a session).
func (p *pages) myGames(c echo.Context) error { return p.myGamesWith(c, "") }

// myGamesWith renders My games, its away section showing awayErr (a
// refused away, "" for none).
func (p *pages) myGamesWith(c echo.Context, awayErr string) error {
	lang := pickLang(c, "")
	email, gs, err := p.svc.MyGamesIn(c.Request().Context(), sessionOf(c), lang) // every line in the reader's language
	if play.ErrorCode(err) == events.CodeUnauthorized {
		return c.Redirect(http.StatusSeeOther, "/signin")
	}
	if err != nil {
		return err
	}
	cat := p.cat(lang)
	sess, err := p.lobbySession(c)
	if err != nil {
		return err
	}
	d := myGamesPage{base: p.base(c, lang), Email: email,
		DeadlineWord: cat.T("me.deadline"), LastWord: cat.T("me.last"), OpenWord: cat.T("me.open")}
	d.Title, d.CSRF = cat.T("me.title"), p.csrfFor(sess)
	loc := location(c)
	for _, g := range gs {
		r := myGameRow{ID: g.GameID, Game: gameName(cat, g.Game), Players: strings.Join(markBots(lang, g.Players, g.Bots), ", "),
			LastMove: g.LastMove, Ended: projections.StatusEnded(g.Status), BotPlayed: g.BotPlayed()}
		switch g.Status {
		case projections.StatusFinished:
			if g.Result != nil {
				r.Result = projections.ResultSummary(g.Result, g.Players, lang)
			}
		case projections.StatusAborted:
			r.Status = cat.T("me.aborted")
		case projections.StatusPaused:
			r.Status = cat.T("me.paused")
		default:
			var who []string
			mine := false
			for _, s := range g.ToMove {
				mine = mine || s == g.Seat
				if s >= 0 && s < len(g.Players) {
					who = append(who, g.Players[s])
				}
			}
			r.Turn = cat.T("me.waiting", strings.Join(who, ", "))
			if mine {
				r.Turn = cat.T("me.yourturn")
			}
			if r.BotPlayed {
				r.Turn = cat.T("me.botplays")
			}
			if g.DeadlineAt != nil {
				r.Deadline = tellTime(cat, *g.DeadlineAt, p.svc.Now(), loc).Text
			}
		}
		d.Games = append(d.Games, r)
	}
	org, err := p.svc.Organised(c.Request().Context(), sessionOf(c))
	if err != nil {
		return err
	}
	for _, g := range org {
		d.Organised = append(d.Organised, organisedRow{ID: g.GameID, Game: gameName(cat, g.Game),
			Players: strings.Join(g.Players, ", "), Status: cat.T("status." + g.Status)})
	}
	if p.svc.KeepsRecords() {
		rec, err := p.svc.MyRecord(c.Request().Context(), sessionOf(c))
		if err != nil {
			return err
		}
		listed, err := p.svc.Listed(c.Request().Context(), sessionOf(c))
		if err != nil {
			return err
		}
		d.Record = p.recordOf(cat, rec, listed)
	}
	if d.Away, err = p.awayOf(c, cat, loc, awayErr); err != nil {
		return err
	}
	status := http.StatusOK
	if awayErr != "" {
		status = http.StatusBadRequest
	}
	return p.render(c, status, "mygames", d)
}

// openAdmin: GET /me/admin/:game puts the admin token of a game the
// session's address organises in the admin page's cookie and goes to that
// page (as the admin link would, without a token in any URL).
func (p *pages) openAdmin(c echo.Context) error {
	id := c.Param("game")
	tok, err := p.svc.AdminTokenFor(c.Request().Context(), sessionOf(c), id)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: adminCookie, Value: tok, Path: "/admin/" + id, MaxAge: cookieAge, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
	return c.Redirect(http.StatusSeeOther, "/admin/"+id)
}

// markBots is names (by seat) as the game names them in lang, bots being
// the seats' bot levels: a bot's seat marked (projections.SeatName).
func markBots(lang string, names, bots []string) []string {
	out := slices.Clone(names)
	for i := range out {
		if i < len(bots) {
			out[i] = projections.SeatName(lang, out[i], bots[i])
		}
	}
	return out
}

// signOut: POST /me/signout.
func (p *pages) signOut(c echo.Context) error {
	if _, err := p.lobbyPost(c); err != nil {
		return err
	}
	if s := sessionOf(c); s != "" {
		if err := p.svc.SignOut(c.Request().Context(), s); err != nil {
			return err
		}
	}
	clearSession(c)
	return c.Redirect(http.StatusSeeOther, "/signin")
}

// openSeat: GET /me/play/:game puts the session address's play token of
// that game in the seat's cookie and goes to its page (as a play link
// would, without a token in any URL).
func (p *pages) openSeat(c echo.Context) error {
	id := c.Param("game")
	tok, err := p.svc.SeatTokenFor(c.Request().Context(), sessionOf(c), id)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: seatCookie, Value: tok, Path: "/play/" + id, MaxAge: cookieAge, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
	return c.Redirect(http.StatusSeeOther, "/play/"+id)
}
