package api

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/events/game"
	"pbem/projections"
)

// lobbyCookie is a random session id for the lobby form's CSRF token.
const lobbyCookie = "pbem_lobby"

// lobbySeats is how many player rows the lobby form offers.
const lobbySeats = 6

// lobbyPage is the data of the lobby.
type lobbyPage struct {
	base
	Games     []option
	Languages []option
	Deadlines []option
	Policies  []option
	Seats     []lobbySeat
	Options   string
	Error     string
}

// option is one choice of a <select>.
type option struct {
	Value, Label string
	Selected     bool
}

// lobbySeat is one player row of the lobby form.
type lobbySeat struct {
	N           int
	Name, Email string
}

// createdPage shows a new game's admin link, once.
type createdPage struct {
	base
	GameID    string
	AdminLink string
}

// lobby: GET /, the form to create a game.
func (p *pages) lobby(c echo.Context) error {
	sess, err := p.lobbySession(c)
	if err != nil {
		return err
	}
	d := p.lobbyData(c, pickLang(c, ""), sess)
	return p.render(c, http.StatusOK, "lobby", d)
}

// lobbySession returns the lobby's session id, setting its cookie if
// needed (it only ties the form to this browser).
func (p *pages) lobbySession(c echo.Context) (string, error) {
	if ck, err := c.Cookie(lobbyCookie); err == nil && len(ck.Value) >= 16 {
		return ck.Value, nil
	}
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	v := base64.RawURLEncoding.EncodeToString(b)
	c.SetCookie(&http.Cookie{Name: lobbyCookie, Value: v, Path: "/", HttpOnly: true, Secure: p.secure(c),
		SameSite: http.SameSiteLaxMode})
	return v, nil
}

func (p *pages) lobbyData(c echo.Context, lang, sess string) *lobbyPage {
	cat := p.cat(lang)
	d := &lobbyPage{base: p.base(c, lang)}
	d.Title = cat.t("lobby.title")
	d.CSRF = p.csrfFor(sess)
	games := p.svc.Games()
	// The games with a page of their own first, then the others by name.
	rank := func(g string) int {
		if _, ok := cat["game."+g]; ok {
			return 0
		}
		return 1
	}
	slices.SortFunc(games, func(a, b string) int {
		if r := rank(a) - rank(b); r != 0 {
			return r
		}
		return strings.Compare(a, b)
	})
	pick := c.FormValue("game")
	for _, g := range games {
		d.Games = append(d.Games, option{Value: g, Label: gameName(cat, g), Selected: g == pick})
	}
	gl := c.FormValue("language")
	if !supported(gl) {
		gl = lang
	}
	for _, l := range pageLangs {
		d.Languages = append(d.Languages, option{Value: l, Label: p.cat(l).t("lang.name"), Selected: l == gl})
	}
	dl := c.FormValue("deadline")
	if dl == "" {
		dl = "72h"
	}
	for _, h := range []int{24, 48, 72, 168} {
		lbl := cat.t("lobby.hours", h)
		if h%24 == 0 && h > 48 {
			lbl = cat.t("lobby.days", h/24)
		}
		v := strconv.Itoa(h) + "h"
		d.Deadlines = append(d.Deadlines, option{Value: v, Label: lbl, Selected: v == dl})
	}
	pol := c.FormValue("policy")
	for _, po := range []string{projections.PolicyDefaultMove, projections.PolicySkip, projections.PolicyPause} {
		d.Policies = append(d.Policies, option{Value: po, Label: cat.t("lobby.policy." + po), Selected: po == pol})
	}
	for i := range lobbySeats {
		n := i + 1
		d.Seats = append(d.Seats, lobbySeat{N: n, Name: c.FormValue("name" + strconv.Itoa(n)), Email: c.FormValue("email" + strconv.Itoa(n))})
	}
	d.Options = c.FormValue("options")
	return d
}

// create: POST /games, the lobby form. It creates the game (the service
// queues the invitations) and shows the admin link once; a refused request
// shows the form again with the reason.
func (p *pages) create(c echo.Context) error {
	ck, err := c.Cookie(lobbyCookie)
	if err != nil {
		return errCSRF
	}
	if err := p.checkCSRF(c, ck.Value); err != nil {
		return err
	}
	lang := pickLang(c, c.FormValue("language"))
	req := game.CreateGame{Game: c.FormValue("game"), Language: c.FormValue("language"),
		TimeoutPolicy: c.FormValue("policy"), RequestID: requestID(c)}
	for i := range lobbySeats {
		n := strconv.Itoa(i + 1)
		name, email := strings.TrimSpace(c.FormValue("name"+n)), strings.TrimSpace(c.FormValue("email"+n))
		if name == "" && email == "" {
			continue
		}
		req.Players = append(req.Players, game.NewPlayer{Name: name, Email: email})
	}
	if o := strings.TrimSpace(c.FormValue("options")); o != "" {
		if !json.Valid([]byte(o)) {
			return p.lobbyError(c, lang, ck.Value, projections.Errorf(projections.EInvalid, "options: give a JSON object"))
		}
		req.Options = json.RawMessage(o)
	}
	turn, err := parseDuration("deadline", c.FormValue("deadline"))
	if err != nil {
		return p.lobbyError(c, lang, ck.Value, err)
	}
	req.TurnDeadline = turn
	cg, err := p.svc.Create(c.Request().Context(), req)
	if err != nil {
		if projections.ErrorCode(err) == projections.EInternal {
			return err
		}
		return p.lobbyError(c, lang, ck.Value, err)
	}
	d := createdPage{base: p.base(c, lang), GameID: cg.ID, AdminLink: p.adminLink(cg.ID, cg.AdminToken)}
	d.Title = p.cat(lang).t("created.title")
	return p.render(c, http.StatusCreated, "created", d)
}

// lobbyError shows the lobby form again, filled in, with err's message.
func (p *pages) lobbyError(c echo.Context, lang, sess string, err error) error {
	d := p.lobbyData(c, lang, sess)
	d.Error = p.cat(lang).t("lobby.error", projections.ErrorMessage(err))
	return p.render(c, http.StatusBadRequest, "lobby", d)
}

// adminLink is a game's admin link, on PBEM_PUBLIC_URL (PageConfig.PublicURL):
// never on the request's Host header, which the client chooses, so that a
// forged Host cannot make the page show a link to another site. Without a
// public URL it is a path on this server.
func (p *pages) adminLink(id, token string) string {
	path := "/admin/" + url.PathEscape(id) + "?token=" + url.QueryEscape(token)
	return strings.TrimRight(p.cfg.PublicURL, "/") + path
}
