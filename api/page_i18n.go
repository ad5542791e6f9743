package api

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"
	_ "time/tzdata" // players' time zones, whatever the host has installed

	"github.com/labstack/echo/v4"
)

// The pages' message catalogs: one JSON file per language under
// web/i18n, the same keys in each (a test checks). Values are fmt formats.

//go:embed web/i18n/*.json
var catalogFS embed.FS

// pageLangs are the languages of the pages, the first being the default.
var pageLangs = []string{"en", "fr", "it"}

// catalog is one language's messages.
type catalog map[string]string

// t formats the message key with args; a missing key shows as itself.
func (c catalog) t(key string, args ...any) string {
	f, ok := c[key]
	if !ok {
		return key
	}
	if len(args) == 0 {
		return f
	}
	return fmt.Sprintf(f, args...)
}

// loadCatalogs reads every embedded catalog.
func loadCatalogs() (map[string]catalog, error) {
	out := map[string]catalog{}
	for _, l := range pageLangs {
		b, err := catalogFS.ReadFile(path.Join("web/i18n", l+".json"))
		if err != nil {
			return nil, err
		}
		var c catalog
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("catalog %s: %w", l, err)
		}
		out[l] = c
	}
	return out, nil
}

// pickLang chooses a page's language: the game's if it has one, else
// ?lang=, else the browser's Accept-Language, else English.
func pickLang(c echo.Context, game string) string {
	if supported(game) {
		return game
	}
	if q := c.QueryParam("lang"); supported(q) {
		return q
	}
	for _, part := range strings.Split(c.Request().Header.Get("Accept-Language"), ",") {
		tag, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if supported(base) {
			return base
		}
	}
	return pageLangs[0]
}

func supported(l string) bool {
	for _, s := range pageLangs {
		if s == l {
			return true
		}
	}
	return false
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
// "today 18:00", "tomorrow 18:00", "Thursday 18:00" within a week, else
// "Thursday 27 November 18:00".
func tellTime(cat catalog, t, now time.Time, loc *time.Location) when {
	lt, ln := t.In(loc), now.In(loc)
	hm := lt.Format("15:04")
	day := func(x time.Time) time.Time { return time.Date(x.Year(), x.Month(), x.Day(), 0, 0, 0, 0, loc) }
	days := int(day(lt).Sub(day(ln)).Round(24*time.Hour) / (24 * time.Hour))
	wd := strings.Split(cat["weekdays"], ",")
	mo := strings.Split(cat["months"], ",")
	w := when{ISO: t.UTC().Format(time.RFC3339), Zone: loc.String()}
	switch {
	case days == 0:
		w.Text = cat.t("date.today", hm)
	case days == 1:
		w.Text = cat.t("date.tomorrow", hm)
	case days > 1 && days < 7 && len(wd) == 7:
		w.Text = cat.t("date.short", wd[lt.Weekday()], hm)
	case len(wd) == 7 && len(mo) == 12:
		w.Text = cat.t("date.long", wd[lt.Weekday()], lt.Day(), mo[lt.Month()-1], hm)
	default:
		w.Text = lt.Format("2006-01-02 15:04")
	}
	return w
}
