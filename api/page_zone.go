package api

import (
	"github.com/labstack/echo/v4"

	"pbem/notify"
)

// recordZone keeps the time zone the browser reported in the pages' tz
// cookie (set by app.js from Intl.DateTimeFormat().resolvedOptions()
// .timeZone) as the seat's, for its emails' deadlines. A missing or unknown
// zone changes nothing (the emails keep the last known zone, or UTC), and a
// failure to record it is logged without failing the page.
func (p *pages) recordZone(c echo.Context, gameID string, seat int) {
	if p.cfg.Zones == nil || seat < 0 {
		return
	}
	ck, err := c.Cookie(tzCookie)
	if err != nil {
		return
	}
	if _, err := notify.CheckZone(ck.Value); err != nil {
		return
	}
	if err := p.cfg.Zones.SetZone(c.Request().Context(), gameID, seat, ck.Value); err != nil {
		p.log.ErrorContext(c.Request().Context(), "api: record a seat's time zone", "game", gameID, "seat", seat, "err", err)
	}
}
