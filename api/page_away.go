package api

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
)

// awayView is My games' away section (issue #43 part 8): the person's
// away going on and what it does in each game, or the form to say one,
// with the days used and left.
type awayView struct {
	// Until tells the day the away ends ("" : not away); Games what it
	// does in each game.
	Until string
	Games []awayRow
	// Days says the days used and left; Min and Max bound the form's day
	// (tomorrow, the latest day allowed; Max "": none left).
	Days     string
	Min, Max string
	// Error says why the last away was refused ("" : none).
	Error string
}

// awayRow is one game of an away going on.
type awayRow struct {
	Game, Players, Effect string
}

// awayOf is the away section of the person signed in with c's session,
// in cat's language and loc's zone (errMsg: a refusal to show).
func (p *pages) awayOf(c echo.Context, cat i18n.Printer, loc *time.Location, errMsg string) (*awayView, error) {
	st, err := p.svc.AwayStatusFor(c.Request().Context(), sessionOf(c), loc)
	if err != nil {
		return nil, err
	}
	now := p.svc.Now().In(loc)
	v := &awayView{Error: errMsg, Min: now.AddDate(0, 0, 1).Format(time.DateOnly), Max: st.Latest,
		Days: cat.T("away.days", strconv.FormatFloat(math.Round(st.DaysUsed*10)/10, 'f', -1, 64), st.DaysLeft, st.DaysAllowed)}
	if st.Until != nil {
		v.Until = tellDay(cat, st.Until.In(loc))
	}
	for _, g := range st.Games {
		r := awayRow{Game: gameName(cat, g.Game), Players: strings.Join(g.Players, ", "), Effect: cat.T("away.effect.bot")}
		if g.Effect == pbemevent.AwayWait && g.WaitUntil != nil {
			r.Effect = cat.T("away.effect.wait", tellDay(cat, g.WaitUntil.In(loc)))
		}
		v.Games = append(v.Games, r)
	}
	return v, nil
}

// tellDay says t's day in cat's language: "Saturday 12 December".
func tellDay(cat i18n.Printer, t time.Time) string {
	wd, mo := strings.Split(cat.T("weekdays"), ","), strings.Split(cat.T("months"), ",")
	if len(wd) != 7 || len(mo) != 12 {
		return t.Format(time.DateOnly)
	}
	return wd[t.Weekday()] + " " + strconv.Itoa(t.Day()) + " " + mo[t.Month()-1]
}

// awayDo: POST /me/away (form: csrf, until) says the signed-in person is
// away until the day given, read in the page's zone; a refusal shows My
// games again with the reason.
func (p *pages) awayDo(c echo.Context) error {
	if _, err := p.lobbyPost(c); err != nil {
		return err
	}
	lang, loc := pickLang(c, ""), location(c)
	cat := p.cat(lang)
	ctx := c.Request().Context()
	st, err := p.svc.AwayStatusFor(ctx, sessionOf(c), loc)
	if play.ErrorCode(err) == events.CodeUnauthorized {
		return c.Redirect(http.StatusSeeOther, "/signin")
	}
	if err != nil {
		return err
	}
	day := strings.TrimSpace(c.FormValue("until"))
	if _, perr := time.Parse(time.DateOnly, day); perr != nil || day <= p.svc.Now().In(loc).Format(time.DateOnly) {
		return p.myGamesWith(c, cat.T("away.err.past"))
	}
	switch {
	case st.Latest == "":
		return p.myGamesWith(c, cat.T("away.err.none"))
	case day > st.Latest:
		latest, _ := time.Parse(time.DateOnly, st.Latest)
		return p.myGamesWith(c, cat.T("away.err.long", tellDay(cat, latest)))
	}
	_, err = p.svc.AwayFor(ctx, sessionOf(c), day, loc)
	switch play.ErrorCode(err) {
	case "":
		return c.Redirect(http.StatusSeeOther, "/me?lang="+lang+"#away")
	case events.CodeConflict:
		return p.myGamesWith(c, cat.T("away.err.forbidden"))
	case events.CodeInvalid:
		return p.myGamesWith(c, play.ErrorMessage(err))
	}
	return err
}

// backDo: POST /me/back (form: csrf): the signed-in person is back.
func (p *pages) backDo(c echo.Context) error {
	if _, err := p.lobbyPost(c); err != nil {
		return err
	}
	_, err := p.svc.BackFor(c.Request().Context(), sessionOf(c), location(c))
	switch play.ErrorCode(err) {
	case events.CodeUnauthorized:
		return c.Redirect(http.StatusSeeOther, "/signin")
	case "", events.CodeConflict: // not away (a second click): My games says so
		return c.Redirect(http.StatusSeeOther, "/me?lang="+pickLang(c, "")+"#away")
	}
	return err
}
