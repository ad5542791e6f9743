package api

import (
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events"
)

// Every page has a language menu (issue #31). On a seat's pages (the play
// page, its history) it changes the language the seat's player reads, for
// the pages and the emails of that game (play.Service.SetLanguage); on the
// other pages (the lobby, My games, sign-in, the admin and audit pages) it
// is remembered by the browser (langCookie), and My games follows it.

// langCookie is the language a visitor chose from a page's menu.
const langCookie = "pbem_lang"

// langMenu is the language menu of a page: where it posts and which
// languages it offers, the page's selected.
type langMenu struct {
	Langs []option
	// LangAction is the form's action; LangBack the page to return to.
	LangAction, LangBack string
	// LangSeat: the menu changes the seat's language (its form carries
	// the page's CSRF token).
	LangSeat bool
}

// menu is the language menu of a page in lang that returns to the page
// asked for.
func (p *pages) menu(c echo.Context, lang string) langMenu {
	// The page's path: its query (a notice, a ?lang=) is not for the
	// page in the new language, and a form's answer is the page of its
	// path (page_fetch.go).
	m := langMenu{LangAction: "/language", LangBack: backPath(c.Request().URL.Path, "/")}
	m.Langs = p.languageChoices(lang, lang)
	return m
}

// seatMenu turns b's menu into the one of game id's seat pages.
func seatMenu(b *base, id string) {
	b.LangAction, b.LangSeat = "/play/"+id+"/language", true
}

// backPath is back if it is a path of this site: it starts with one "/"
// (not "//" nor "/\\", which browsers read as another host) and holds no
// control character (a browser drops a tab or a line break, so that
// "/\t/evil.example" would lead to //evil.example); else fallback.
func backPath(back, fallback string) string {
	if !strings.HasPrefix(back, "/") || strings.HasPrefix(back, "//") || strings.HasPrefix(back, "/\\") || len(back) > 2000 {
		return fallback
	}
	for _, r := range back {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return fallback
		}
	}
	return back
}

// rememberLang sets the language cookie.
func (p *pages) rememberLang(c echo.Context, lang string) {
	c.SetCookie(&http.Cookie{Name: langCookie, Value: lang, Path: "/", MaxAge: cookieAge, HttpOnly: true,
		Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
}

// chosenLang reads the menu's lang field. Errors: events.CodeInvalid.
func chosenLang(c echo.Context) (string, error) {
	lang := c.FormValue("lang")
	if !i18n.Supported(lang) {
		return "", events.FieldErrorf(events.CodeInvalid, "lang", "lang: give one of %s", strings.Join(i18n.Languages, ", "))
	}
	return lang, nil
}

// setLanguage: POST /language (form: lang, back). The browser remembers
// the language; the answer goes back to the page (303).
func (p *pages) setLanguage(c echo.Context) error {
	lang, err := chosenLang(c)
	if err != nil {
		return err
	}
	p.rememberLang(c, lang)
	return c.Redirect(http.StatusSeeOther, backPath(c.FormValue("back"), "/"))
}

// seatLanguage: POST /play/:game/language (form: csrf, lang, back). The
// seat's player reads the game in lang from now on (pages and emails);
// the browser remembers it too. The answer goes back to the page (303).
func (p *pages) seatLanguage(c echo.Context) error {
	id := c.Param("game")
	tok, err := p.tokenPost(c, seatCookie)
	if err != nil {
		return err
	}
	lang, err := chosenLang(c)
	if err != nil {
		return err
	}
	if err := p.svc.SetLanguage(c.Request().Context(), id, tok, lang, requestID(c)); err != nil {
		return err
	}
	p.rememberLang(c, lang)
	back := backPath(c.FormValue("back"), "/play/"+id)
	if back != "/play/"+id && !strings.HasPrefix(back, "/play/"+id+"/") && !strings.HasPrefix(back, "/play/"+id+"?") {
		back = "/play/" + id
	}
	return c.Redirect(http.StatusSeeOther, back)
}
