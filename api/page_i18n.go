package api

import (
	"embed"
	"pbem/events/play"
	"strings"
	"time"
	_ "time/tzdata" // players' time zones, whatever the host has installed

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/projections"
)

// The pages' messages: one JSON file per language under web/i18n (en.json,
// fr.json, it.json), fmt formats with positional arguments and CLDR plural
// forms, loaded by pbem/engine/i18n. Every text of a page goes through
// pageCatalog: the templates' "t" and the handlers' Printer.T.

//go:embed web/i18n/*.json
var catalogFS embed.FS

// pageCatalog is the pages' catalog; TestPageCatalogCheck checks that every
// language has every key with the same arguments.
var pageCatalog = i18n.MustLoad(catalogFS, "web/i18n", "pages")

// textOr is key's message in cat's language, or fallback if the catalog
// has no such key (a name the view gives that no page text translates).
func textOr(cat i18n.Printer, key, fallback string) string {
	if pageCatalog.Has(key) {
		return cat.T(key)
	}
	return fallback
}

// errorDetail explains err in cat's language (projections.ExplainError).
func errorDetail(cat i18n.Printer, err error) string {
	return projections.ExplainError(cat.Lang(), play.ServiceErrorCode(err), play.ErrorMessage(err))
}

// pickLang chooses a page's language: ?lang=, else the language the
// visitor chose from a page's menu (langCookie), else the game's if it has
// one, else the browser's Accept-Language, else English. A seat's pages
// take the seat's language instead (seatLang).
func pickLang(c echo.Context, game string) string {
	if q := c.QueryParam("lang"); i18n.Supported(q) {
		return q
	}
	if ck, err := c.Cookie(langCookie); err == nil && i18n.Supported(ck.Value) {
		return ck.Value
	}
	if i18n.Supported(game) {
		return game
	}
	return browserLang(c)
}

// browserLang is the first language of the browser's Accept-Language
// that pbem speaks, else English.
func browserLang(c echo.Context) string {
	for _, part := range strings.Split(c.Request().Header.Get("Accept-Language"), ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if i18n.Supported(base) {
			return base
		}
	}
	return i18n.Languages[0]
}

// seatLang is the language of a seat's page: the seat's (which its
// player changes from the page's menu), else as pickLang chooses.
func seatLang(c echo.Context, seat string) string {
	if i18n.Supported(seat) {
		return seat
	}
	return pickLang(c, "")
}

// tzCookie is the cookie the pages' script sets to the browser's time zone.
const tzCookie = "pbem_tz"

// location returns the player's time zone from the tz cookie (UTC if
// absent or unknown).
func location(c echo.Context) *time.Location {
	ck, err := c.Cookie(tzCookie)
	if err != nil || ck.Value == "" || len(ck.Value) > 64 {
		return time.UTC
	}
	loc, err := time.LoadLocation(ck.Value)
	if err != nil {
		return time.UTC
	}
	return loc
}

// when is a time told in the player's terms.
type when struct {
	ISO  string // RFC 3339, for <time datetime>
	Text string // "Thursday 18:00", "tomorrow 09:30"...
	Zone string // the zone's name
}

// tellTime says t in cat's language and loc's time zone, relative to now:
// "today 18:00", "tomorrow 18:00", "yesterday 18:00", "Thursday 18:00" within a week, else
// "Thursday 27 November 18:00".
func tellTime(cat i18n.Printer, t, now time.Time, loc *time.Location) when {
	lt, ln := t.In(loc), now.In(loc)
	hm := lt.Format("15:04")
	day := func(x time.Time) time.Time { return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, loc) }
	days := int(day(lt).Sub(day(ln)).Round(24*time.Hour) / (24 * time.Hour))
	wd := strings.Split(cat.T("weekdays"), ",")
	mo := strings.Split(cat.T("months"), ",")
	w := when{ISO: t.UTC().Format(time.RFC3339), Zone: loc.String()}
	switch {
	case days == 0:
		w.Text = cat.T("date.today", hm)
	case days == 1:
		w.Text = cat.T("date.tomorrow", hm)
	case days == -1:
		w.Text = cat.T("date.yesterday", hm)
	case days > 1 && days < 7 && len(wd) == 7:
		w.Text = cat.T("date.short", wd[lt.Weekday()], hm)
	case len(wd) == 7 && len(mo) == 12:
		w.Text = cat.T("date.long", wd[lt.Weekday()], lt.Day(), mo[lt.Month()-1], hm)
	default:
		w.Text = lt.Format("2006-01-02 15:04")
	}
	return w
}
