package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"pbem/notify"
)

// A seat's emails tell deadlines in its player's time zone (issue #30).
// The pages' script reports the browser's zone in the tz cookie
// (tzCookie), which every play page records as the seat's (recordZone).
// Detecting it is not asking: the play page says which zone it tells
// times in, in one line under the deadline that opens the question
// (zoneAsk); the question is open only until the player has answered
// once on this browser (the zone-set cookie, tzSetCookie) or the browser
// has told its zone. The answer (POST
// /play/:game/zone) is a city or an IANA zone name; it becomes the tz
// cookie, which the script no longer replaces with the browser's, and the
// seat's zone. "Follow this device" drops both cookies: the script detects
// the zone again.

// tzSetCookie marks a browser whose player chose (or confirmed) the zone
// of the tz cookie: the script leaves that cookie alone.
const tzSetCookie = "pbem_tz_set"

// Notices of the zone form's answer.
const (
	noticeZone    = "zone"
	noticeZoneBad = "zonebad"
)

// zoneAsk is the play page's time-zone question.
type zoneAsk struct {
	// Zone is the zone the page tells times in ("UTC" when none is known).
	Zone string
	// Open: the player has not answered on this browser yet.
	Open bool
	// Choices are the zones the field suggests.
	Choices []string
}

// askZone is the time-zone question of a play page: open only while the
// player has not answered on this browser and the browser has not told
// its zone either (issue #43: a question open on every first visit took
// the phone's first screen); once the zone is known it is one line, a
// tap away.
func askZone(c echo.Context) *zoneAsk {
	_, answered := c.Cookie(tzSetCookie)
	return &zoneAsk{Zone: location(c).String(), Open: answered != nil && !deviceZoneKnown(c), Choices: notify.ZoneChoices}
}

// deviceZoneKnown reports whether the browser told its time zone (the tz
// cookie the script sets holds a zone).
func deviceZoneKnown(c echo.Context) bool {
	ck, err := c.Cookie(tzCookie)
	if err != nil {
		return false
	}
	_, err = notify.CheckZone(ck.Value)
	return err == nil
}

// recordZone keeps the time zone the browser reported in the pages' tz
// cookie (set by app.js from Intl.DateTimeFormat().resolvedOptions()
// .timeZone, or chosen with seatZone) as the seat's, for its emails'
// deadlines. A missing or unknown zone changes nothing (the emails keep
// the last known zone, or UTC), and a failure to record it is logged
// without failing the page.
func (p *pages) recordZone(c echo.Context, gameID string, seat int) {
	ck, err := c.Cookie(tzCookie)
	if err != nil {
		return
	}
	p.setZone(c, gameID, seat, ck.Value)
}

// setZone records zone as the seat's, if it is a zone (and the pages
// record zones: Config.Zones).
func (p *pages) setZone(c echo.Context, gameID string, seat int, zone string) {
	if p.cfg.Zones == nil || seat < 0 {
		return
	}
	if _, err := notify.CheckZone(zone); err != nil {
		return
	}
	if err := p.cfg.Zones.SetZone(c.Request().Context(), gameID, seat, zone); err != nil {
		p.log.ErrorContext(c.Request().Context(), "api: record a seat's time zone", "game", gameID, "seat", seat, "err", err)
	}
}

// seatZone: POST /play/:game/zone (form: csrf, zone; or follow=1 and
// device, the browser's zone the script fills in). The player's time
// zone, a city or a zone name, for this browser's pages and the seat's
// emails; follow=1 goes back to the browser's own zone (detected again on
// the next page without script). An unknown zone changes nothing. The
// answer is a 303 to the play page with a notice: a redirect even to the
// page's script, so that the page it fetches next is told in the new zone
// (its cookie).
func (p *pages) seatZone(c echo.Context) error {
	id := c.Param("game")
	tok, err := p.tokenPost(c, seatCookie)
	if err != nil {
		return err
	}
	sp, err := p.svc.SeatPage(c.Request().Context(), id, tok)
	if err != nil {
		return err
	}
	to := "/play/" + id + "?n="
	if c.FormValue("follow") != "" {
		p.zoneCookie(c, tzSetCookie, "")
		zone, err := notify.CheckZone(c.FormValue("device"))
		if err != nil {
			p.zoneCookie(c, tzCookie, "")
			return c.Redirect(http.StatusSeeOther, "/play/"+id)
		}
		p.zoneCookie(c, tzCookie, zone.String())
		p.setZone(c, id, sp.View.Seat, zone.String())
		return c.Redirect(http.StatusSeeOther, to+noticeZone)
	}
	zone, ok := notify.ResolveZone(c.FormValue("zone"))
	if !ok {
		return c.Redirect(http.StatusSeeOther, to+noticeZoneBad)
	}
	p.zoneCookie(c, tzCookie, zone)
	p.zoneCookie(c, tzSetCookie, "1")
	p.setZone(c, id, sp.View.Seat, zone)
	return c.Redirect(http.StatusSeeOther, to+noticeZone)
}

// zoneCookie sets one of the zone cookies ("" deletes it). The script
// reads both (not HttpOnly); they last a year, as the script's tz cookie.
func (p *pages) zoneCookie(c echo.Context, name, value string) {
	age := 365 * 24 * 3600
	if value == "" {
		age = -1
	}
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: "/", MaxAge: age, Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
}
