package api

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/engine"
	"pbem/events"
	"pbem/events/play"
	"pbem/notify"
	"pbem/projections"
)

// adminPage is the data of a game's admin page.
type adminPage struct {
	base
	GameID    string
	GameName  string
	Status    string
	StatusKey string
	Seats     []play.SeatName
	// Table is the seat table: who plays each seat, their address, person
	// or bot, last visit and since when the game awaits them, with the
	// actions on each row.
	Table    []adminSeatRow
	Deadline *when
	Active   bool
	Paused   bool
	Ended    bool
	Extends  []option
	// BotLevels are the levels a seat may be handed to (normal chosen).
	BotLevels []option
	// Answer says what the last action did and who was told ("" : none).
	Answer   string
	Failed   []failedRow
	ShowFail bool
	// MySeat names the seat the organiser holds (their own play page is
	// a tap away: the action "play"), "" when they hold none.
	MySeat string
}

// failedRow is an email that failed or waits for its next attempt, on the
// admin page: Next tells when it is tried again (nil: given up).
type failedRow struct {
	notify.FailedEmail
	// What names the email's kind in the page's language.
	What string
	Next *when
}

// adminSeatRow is one row of the admin page's seat table.
type adminSeatRow struct {
	play.AdminSeat
	// Kind says who plays the seat: a person, or a bot of some level.
	Kind string
	// Visit and Awaited tell LastVisit and AwaitedSince (nil: never, not awaited).
	Visit, Awaited *when
}

// adminAuth checks that tok is game id's admin token.
func (p *pages) adminAuth(c echo.Context, id, tok string) error {
	a, err := p.svc.Authenticate(c.Request().Context(), id, tok)
	if err != nil {
		return err
	}
	if !a.Admin {
		return events.Errorf(events.CodeUnauthorized, "this is not the admin link of game %s", id)
	}
	return nil
}

// adminLang is the language of the admin page a request is for (as
// summaryPage chooses it: ?lang=, the visitor's menu, else the game's),
// when the request carries an admin link of the game: its ?token= on a
// GET, else its cookie; a link replaced by a newer one counts, since it
// once opened the game (only the server's secret makes one). ok is false
// for any other request, a link that opens no game, and when the game
// cannot be read (an error page must not fail for it).
func (p *pages) adminLang(c echo.Context) (lang string, ok bool) {
	id := c.Param("game")
	if c.Path() != "/admin/:game" || id == "" {
		return "", false
	}
	tok := c.QueryParam("token")
	if c.Request().Method != http.MethodGet || tok == "" {
		ck, err := c.Cookie(adminCookie)
		if err != nil {
			return "", false
		}
		tok = ck.Value
	}
	if err := p.adminAuth(c, id, tok); err != nil && !errors.Is(err, play.ErrAdminRevoked) {
		return "", false
	}
	sm, err := p.svc.Summary(c.Request().Context(), id)
	if err != nil {
		return "", false
	}
	return pickLang(c, sm.Language), true
}

// admin: GET /admin/:game, the game's admin page.
func (p *pages) admin(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("game")
	if swapped, err := p.swapToken(c, adminCookie, "/admin/"+id, func(tok string) error {
		return p.adminAuth(c, id, tok)
	}); swapped {
		return err
	}
	tok, err := cookieToken(c, adminCookie)
	if err != nil {
		return err
	}
	if err := p.adminAuth(c, id, tok); err != nil {
		return err
	}
	sm, cat, b, err := p.summaryPage(c, id)
	if err != nil {
		return err
	}
	d := adminPage{base: b, GameID: id, GameName: gameName(cat, sm.Game), Status: cat.T("status." + sm.Status),
		StatusKey: sm.Status, Seats: sm.Seats, Active: sm.Status == projections.StatusActive,
		Paused: sm.Status == projections.StatusPaused}
	d.Ended = !d.Active && !d.Paused
	d.Title = cat.T("admin.title", d.GameName)
	d.CSRF = p.csrfFor(tok)
	if sm.Deadline != nil && d.Active {
		w := tellTime(cat, *sm.Deadline, p.svc.Now(), location(c))
		d.Deadline = &w
	}
	for _, h := range []int{1, 24, 72, 168} {
		lbl := cat.T("lobby.hours", h)
		if h >= 72 {
			lbl = cat.T("lobby.days", h/24)
		}
		d.Extends = append(d.Extends, option{Value: strconv.Itoa(h) + "h", Label: lbl, Selected: h == 24})
	}
	d.BotLevels = botLevels(cat, engine.BotNormal.String())
	seats, err := p.svc.AdminSeats(ctx, id, tok)
	if err != nil {
		return err
	}
	loc, now := location(c), p.svc.Now()
	for _, st := range seats {
		r := adminSeatRow{AdminSeat: st, Kind: cat.T("lobby.kind.person")}
		if st.Bot != "" {
			r.Kind = cat.T("lobby.kind." + st.Bot)
		}
		if st.LastVisit != nil {
			w := tellTime(cat, *st.LastVisit, now, loc)
			r.Visit = &w
		}
		if st.AwaitedSince != nil {
			w := tellTime(cat, *st.AwaitedSince, now, loc)
			r.Awaited = &w
		}
		d.Table = append(d.Table, r)
	}
	switch seat, _, err := p.svc.OrganiserSeat(ctx, id, tok); play.ErrorCode(err) {
	case "":
		d.MySeat = seatName(seatNames(sm), seat)
	case events.CodeNotFound:
	default:
		return err
	}
	d.Answer = adminAnswer(cat, c.QueryParam("n"), c.QueryParam("seat"), d.Deadline, seats)
	if p.cfg.Failed != nil {
		d.ShowFail = true
		failed, err := p.cfg.Failed.Failed(ctx, id)
		if err != nil {
			return err
		}
		for _, f := range failed {
			row := failedRow{FailedEmail: f, What: textOr(cat, "admin.mail."+string(f.Kind), string(f.Kind))}
			if f.Status == notify.EmailWaiting && f.NextAttempt != nil {
				next := tellTime(cat, *f.NextAttempt, p.svc.Now(), location(c))
				row.Next = &next
			}
			d.Failed = append(d.Failed, row)
		}
	}
	return p.render(c, http.StatusOK, "admin", d)
}

// adminAction: POST /admin/:game (form: csrf, action, and seat for resend,
// by for extend, confirm for abort). It answers 303 to the admin page.
func (p *pages) adminAction(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("game")
	tok, err := p.tokenPost(c, adminCookie)
	if err != nil {
		return err
	}
	switch c.FormValue("action") {
	case "resend":
		seat, perr := strconv.Atoi(c.FormValue("seat"))
		if perr != nil {
			return events.Errorf(events.CodeInvalid, "seat: choose a player")
		}
		err = chargeAdminMail(c, p.svc, p.limit, id, tok, toSeat(seat), func() error {
			_, err := p.svc.ResendLink(ctx, id, tok, seat)
			return err
		})
	case "pause":
		_, err = p.svc.Pause(ctx, id, tok, c.FormValue("reason"))
	case "email", "replace":
		seat, perr := strconv.Atoi(c.FormValue("seat"))
		if perr != nil {
			return events.Errorf(events.CodeInvalid, "seat: choose a player")
		}
		to := toAddress(c.FormValue("email"))
		if c.FormValue("action") == "replace" {
			to = toReplaced(seat, c.FormValue("email"))
		}
		err = chargeAdminMail(c, p.svc, p.limit, id, tok, to, func() error {
			var err error
			if c.FormValue("action") == "email" {
				_, err = p.svc.ChangeEmail(ctx, id, tok, seat, c.FormValue("email"))
			} else {
				_, err = p.svc.ReplacePlayer(ctx, id, tok, seat, c.FormValue("name"), c.FormValue("email"))
			}
			return err
		})
	case "bot":
		// Hand a seat to a bot (level) or back to its person (level "").
		seat, perr := strconv.Atoi(c.FormValue("seat"))
		if perr != nil {
			return events.Errorf(events.CodeInvalid, "seat: choose a player")
		}
		_, err = p.svc.SeatBot(ctx, id, tok, seat, c.FormValue("level"))
		if np := (*play.NoPersonError)(nil); errors.As(err, &np) {
			return p.noPerson(c, id, np)
		}
		if errors.Is(err, play.ErrPlayedSo) {
			err = nil // the same hand-off sent twice (a double tap, a page sent again): done
		}
	case "rematch":
		return p.rematch(c, id, tok)
	case "play":
		return p.organiserPlays(c, id, tok)
	case "revoke":
		return p.revokeAdmin(c, id, tok)
	case "resume":
		_, err = p.svc.Resume(ctx, id, tok)
	case "extend":
		var by time.Duration
		if by, err = parseDuration("by", c.FormValue("by")); err == nil {
			_, err = p.svc.Extend(ctx, id, tok, by)
		}
	case "abort":
		if c.FormValue("confirm") != "yes" {
			return events.Errorf(events.CodeInvalid, "tick the box to confirm the abort")
		}
		_, err = p.svc.Abort(ctx, id, tok)
	default:
		return events.Errorf(events.CodeInvalid, "action: unknown")
	}
	if err != nil {
		return err
	}
	to := "/admin/" + url.PathEscape(id) + "?n=" + url.QueryEscape(c.FormValue("action"))
	if seat := c.FormValue("seat"); seat != "" {
		to += "&seat=" + url.QueryEscape(seat)
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// noPerson is the page of a hand-back refused because a bot has played
// the seat since the game began (np), which the admin page no longer
// offers but a page older than the seat table's rule, or a forged form,
// may still ask for: in the admin page's language, the seat named by its
// player's name as the players see it, with the refusal's status (409).
func (p *pages) noPerson(c echo.Context, id string, np *play.NoPersonError) error {
	_, cat, b, err := p.summaryPage(c, id)
	if err != nil {
		return err
	}
	code := play.ErrorCode(np)
	d := pageError{base: b, Status: statusFor(code, np), Code: code, Msg: "admin.no_person",
		Detail: cat.T("admin.no_person_detail", np.Name), Back: "/admin/" + id}
	d.Title = cat.T("err.title")
	return p.render(c, d.Status, "error", d)
}

// revokeAdmin revokes the admin link of the page's cookie (the form's
// confirm box ticked) and shows that a new one was emailed to the
// organiser; the cookie is cleared, since its token no longer opens the
// page, and the new link goes only by email.
func (p *pages) revokeAdmin(c echo.Context, id, tok string) error {
	if c.FormValue("confirm") != "yes" {
		return events.Errorf(events.CodeInvalid, "tick the box to confirm that the admin link is to be replaced")
	}
	err := chargeAdminMail(c, p.svc, p.limit, id, tok, toOrganiser, func() error {
		_, err := p.svc.RevokeAdminLink(c.Request().Context(), id, tok)
		return err
	})
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: adminCookie, Value: "", Path: "/admin/" + id, MaxAge: -1, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
	sm, cat, b, err := p.summaryPage(c, id)
	if err != nil {
		return err
	}
	b.Title = cat.T("admin.revoked_title", gameName(cat, sm.Game))
	return p.render(c, http.StatusOK, "admin_revoked", b)
}

// organiserPlays opens the play page of the seat the organiser holds (its
// token in that page's cookie, as the seat's emailed link does).
func (p *pages) organiserPlays(c echo.Context, id, tok string) error {
	_, seatTok, err := p.svc.OrganiserSeat(c.Request().Context(), id, tok)
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{Name: seatCookie, Value: seatTok, Path: "/play/" + id, MaxAge: cookieAge, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
	return c.Redirect(http.StatusSeeOther, "/play/"+url.PathEscape(id))
}
