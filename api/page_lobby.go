package api

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/engine"
	"pbem/engine/i18n"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/projections"
)

// lobbyCookie is a random session id for the lobby form's CSRF token.
const lobbyCookie = "pbem_lobby"

// lobbyPage is the data of the lobby. The form is built from the chosen
// game's Settings: the player counts it allows and the options that count
// allows (checkboxes, lists, numbers, a file for a document). Changing the
// game or the number of players posts the form with "refresh" (the
// pages' script does it at once; without script, the Update button), which
// shows it again with the values kept and the options of the new choice.
type lobbyPage struct {
	base
	PageLang string
	Games    []option
	// About is the chosen game's line of description, and Rules the
	// address of its rules in short ("" for a game without them).
	About, Rules string
	Languages    []option
	Deadlines    []option
	Policies     []option
	// AwayPolicies are the choices of what a player being away does.
	AwayPolicies []option
	Counts       []option
	Seats        []lobbySeat
	Options      []optionField
	Organiser    lobbySeat
	// Problems are the reasons the form was refused for, in the form's
	// order, each linking to its field (page_lobby_problems.go).
	Problems []formProblem

	// Musters and MusterDefaults are the muster's choices (page_muster.go).
	Musters, MusterDefaults []option
}

// option is one choice of a <select>.
type option struct {
	Value, Label string
	Selected     bool
}

// lobbySeat is one player row of the lobby form.
type lobbySeat struct {
	N                     int
	Name, Email           string
	NameError, EmailError string
	// Kinds are the choices of who plays the seat: a person, or a bot of a
	// level.
	Kinds []option
	// Bot: a bot plays the seat (the posted kind): it has no name, email
	// or language fields to fill in (a bot is named "Bot N").
	Bot bool
	// Languages are the languages the seat's player may read, the posted
	// one (else the page's) selected.
	Languages []option
}

// optionField is one game option in the form.
type optionField struct {
	engine.OptionSpec
	Name    string // the form field: "opt_" + key
	Checked bool   // a bool that is on
	Fixed   bool   // imposed by the player count: shown on, not sent
	Value   string // a choice's or a number's value
	Choices []option
	Error   string
}

// proposedPage tells the organiser to look for the confirmation email.
type proposedPage struct {
	base
	Email string
}

// lobby: GET /, the form to create a game.
func (p *pages) lobby(c echo.Context) error {
	sess, err := p.lobbySession(c)
	if err != nil {
		return err
	}
	lang := pickLang(c, "")
	return p.render(c, http.StatusOK, "lobby", p.lobbyData(c, lang, sess))
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

// lobbyGames lists the games, those with a page of their own first.
func (p *pages) lobbyGames(cat i18n.Printer) []string {
	games := p.svc.Games()
	rank := func(g string) int {
		if pageCatalog.Has("game." + g) {
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
	return games
}

// lobbyChoice is the game and player count the form shows: the posted
// ones when valid, else the first game and its smallest count (two when
// it allows two).
func (p *pages) lobbyChoice(c echo.Context, games []string, lang string) (string, engine.Settings, int) {
	g := c.FormValue("game")
	if !slices.Contains(games, g) && len(games) > 0 {
		g = games[0]
	}
	st, _ := p.svc.Settings(g, lang)
	n, err := strconv.Atoi(c.FormValue("players"))
	if err != nil || n < st.MinPlayers || n > st.MaxPlayers {
		n = max(st.MinPlayers, min(2, st.MaxPlayers))
	}
	return g, st, n
}

func (p *pages) lobbyData(c echo.Context, lang, sess string) *lobbyPage {
	cat := p.cat(lang)
	d := &lobbyPage{base: p.base(c, lang), PageLang: lang}
	d.Title = cat.T("lobby.title")
	d.CSRF = p.csrfFor(sess)
	games := p.lobbyGames(cat)
	pick, st, n := p.lobbyChoice(c, games, lang)
	for _, g := range games {
		d.Games = append(d.Games, option{Value: g, Label: gameName(cat, g), Selected: g == pick})
	}
	d.About = textOr(cat, "lobby.about."+pick, "")
	if pageCatalog.Has("help." + pick + ".s1.title") {
		d.Rules = "/help/" + url.PathEscape(pick) + "?lang=" + url.QueryEscape(lang)
	}
	for k := st.MinPlayers; k <= st.MaxPlayers; k++ {
		d.Counts = append(d.Counts, option{Value: strconv.Itoa(k), Label: cat.T("lobby.count", k), Selected: k == n})
	}
	gl := c.FormValue("language")
	if !i18n.Supported(gl) {
		gl = lang
	}
	for _, l := range i18n.Languages {
		d.Languages = append(d.Languages, option{Value: l, Label: p.cat(l).T("lang.name"), Selected: l == gl})
	}
	dl := c.FormValue("deadline")
	if dl == "" {
		dl = "72h"
	}
	for _, h := range []int{24, 48, 72, 168} {
		lbl := cat.T("lobby.hours", h)
		if h%24 == 0 && h > 48 {
			lbl = cat.T("lobby.days", h/24)
		}
		v := strconv.Itoa(h) + "h"
		d.Deadlines = append(d.Deadlines, option{Value: v, Label: lbl, Selected: v == dl})
	}
	d.Musters, d.MusterDefaults = musterChoices(cat, c.FormValue("muster"), c.FormValue("muster_default"))
	pol := c.FormValue("policy")
	for _, po := range []string{projections.PolicyDefaultMove, projections.PolicySkip, projections.PolicyPause, projections.PolicyBot} {
		d.Policies = append(d.Policies, option{Value: po, Label: cat.T("lobby.policy." + po), Selected: po == pol})
	}
	away := c.FormValue("away")
	for _, po := range []string{pbemevent.AwayWait, pbemevent.AwayBot, pbemevent.AwayForbidden} {
		d.AwayPolicies = append(d.AwayPolicies, option{Value: po, Label: cat.T("lobby.away." + po), Selected: po == away})
	}
	for i := range n {
		k := strconv.Itoa(i + 1)
		d.Seats = append(d.Seats, lobbySeat{N: i + 1, Name: c.FormValue("name" + k), Email: c.FormValue("email" + k),
			Kinds: seatKinds(cat, c.FormValue("kind"+k)), Languages: p.languageChoices(c.FormValue("lang"+k), lang),
			Bot: isBotKind(c.FormValue("kind" + k))})
	}
	d.Organiser = lobbySeat{Name: c.FormValue("organiser_name"), Email: c.FormValue("organiser_email")}
	for _, o := range st.For(n) {
		f := optionField{OptionSpec: o, Name: "opt_" + o.Key, Fixed: o.IsForced(n)}
		v, posted := c.Request().Form[f.Name]
		switch o.Type {
		case engine.OptionBool:
			f.Checked = f.Fixed || (posted && len(v) > 0 && v[0] == "on")
		case engine.OptionChoice, engine.OptionNumber:
			f.Value = defaultText(o.Default)
			if posted && len(v) > 0 {
				f.Value = v[0]
			}
			for _, x := range o.Values {
				f.Choices = append(f.Choices, option{Value: x.Value, Label: x.Label, Selected: x.Value == f.Value})
			}
		}
		d.Options = append(d.Options, f)
	}
	return d
}

// languageChoices are the languages of a select, each named in itself,
// chosen selected if the service speaks it, else fallback.
func (p *pages) languageChoices(chosen, fallback string) []option {
	if !i18n.Supported(chosen) {
		chosen = fallback
	}
	var out []option
	for _, l := range i18n.Languages {
		out = append(out, option{Value: l, Label: p.cat(l).T("lang.name"), Selected: l == chosen})
	}
	return out
}

// defaultText writes an option's default as a form value.
func defaultText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	return ""
}

// create: POST /games, the lobby form. With "refresh" it only shows the
// form again for the chosen game and count. Otherwise it proposes the
// game: the organiser gets a confirmation link, and the page says so; a
// refused request shows the form again with each reason beside its field,
// in the page's language.
func (p *pages) create(c echo.Context) error {
	session, err := p.lobbyPost(c)
	if err != nil {
		return err
	}
	lang := formLang(c)
	if c.FormValue("refresh") != "" {
		return p.render(c, http.StatusOK, "lobby", p.lobbyData(c, lang, session))
	}
	req, err := p.lobbyRequest(c, lang)
	if err != nil {
		if play.ErrorCode(err) == events.CodeInternal {
			return err
		}
		// The rest of the form is checked too: the page shows every
		// problem at once.
		checked := p.svc.CheckGame(c.Request().Context(), req)
		if play.ErrorCode(checked) == events.CodeInternal {
			return checked
		}
		return p.lobbyError(c, lang, session, play.JoinRefusals(err, checked))
	}
	ch, err := p.limit.proposal(clientIP(c), req.Organiser.Email, len(req.Players), req.Emails())
	if err != nil {
		return err
	}
	if _, err := p.svc.Propose(c.Request().Context(), req); err != nil {
		ch.undo()
		if play.ErrorCode(err) == events.CodeInternal {
			return err
		}
		return p.lobbyError(c, lang, session, err)
	}
	d := proposedPage{base: p.base(c, lang), Email: req.Organiser.Email}
	d.Title = p.cat(lang).T("proposed.title")
	return p.render(c, http.StatusAccepted, "proposed", d)
}

// lobbyRequest reads the form into a create request. Its error holds
// every problem the form's own reading finds (a number that is not one, a
// file that is not a JSON object, a deadline or muster it cannot read:
// play.JoinRefusals), each naming its field where it has one; the request
// is read without those fields, for the service to check the rest.
func (p *pages) lobbyRequest(c echo.Context, lang string) (play.CreateGame, error) {
	var problems []error
	cat := p.cat(lang)
	games := p.lobbyGames(cat)
	g, st, n := p.lobbyChoice(c, games, lang)
	req := play.CreateGame{Game: g, Language: c.FormValue("language"), TimeoutPolicy: c.FormValue("policy"), AwayPolicy: c.FormValue("away"),
		RequestID: requestID(c), MessageLanguage: lang,
		Organiser: play.Organiser{Name: strings.TrimSpace(c.FormValue("organiser_name")), Email: strings.TrimSpace(c.FormValue("organiser_email"))}}
	for i := range n {
		k := strconv.Itoa(i + 1)
		pl := play.NewPlayer{Name: strings.TrimSpace(c.FormValue("name" + k)), Email: strings.TrimSpace(c.FormValue("email" + k)),
			Language: c.FormValue("lang" + k)}
		if kind := c.FormValue("kind" + k); isBotKind(kind) {
			// A bot: its level and a name of its own; the form shows it no
			// name, email or language field (issue #43), and any posted
			// are ignored.
			pl.Bot, pl.Name, pl.Email, pl.Language = kind, cat.T("lobby.bot_name", i+1), "", ""
		}
		req.Players = append(req.Players, pl)
	}
	// The organiser is usually a player: their name may be left out.
	if req.Organiser.Name == "" {
		for _, pl := range req.Players {
			if strings.EqualFold(pl.Email, req.Organiser.Email) {
				req.Organiser.Name = pl.Name
			}
		}
	}
	opts := map[string]any{}
	for _, o := range st.For(n) {
		name := "opt_" + o.Key
		switch o.Type {
		case engine.OptionBool:
			if c.FormValue(name) == "on" && !o.IsForced(n) {
				opts[o.Key] = true
			}
		case engine.OptionChoice:
			if v := c.FormValue(name); v != "" && v != defaultText(o.Default) {
				opts[o.Key] = v
			}
		case engine.OptionNumber:
			if v := c.FormValue(name); v != "" && v != defaultText(o.Default) {
				x, err := strconv.Atoi(v)
				if err != nil {
					problems = append(problems, events.FieldErrorf(engine.CodeBadOptions, o.Key, "%s", cat.T("lobby.err.number")))
					continue
				}
				opts[o.Key] = x
			}
		case engine.OptionDocument:
			doc, chosen, err := formDocument(c, name)
			if err != nil {
				problems = append(problems, events.FieldErrorf(engine.CodeBadOptions, o.Key, "%s", cat.T("lobby.err.document")))
			} else if chosen {
				opts[o.Key] = doc
			}
		}
	}
	raw, err := json.Marshal(opts)
	if err != nil {
		return req, err
	}
	req.Options = raw
	if turn, err := parseDuration("deadline", c.FormValue("deadline")); err != nil {
		problems = append(problems, err)
	} else {
		req.TurnDeadline = turn
	}
	problems = append(problems, formMuster(c, &req))
	return req, play.JoinRefusals(problems...)
}

// formDocument reads an uploaded JSON document; chosen is false when no
// file (or an empty one) was chosen. An error for a file that is not a
// JSON object.
func formDocument(c echo.Context, name string) (doc json.RawMessage, chosen bool, err error) {
	fh, err := c.FormFile(name)
	if err != nil {
		return nil, false, nil // no file
	}
	f, err := fh.Open()
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxBody))
	if err != nil {
		return nil, false, err
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil, false, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || obj == nil {
		return nil, false, events.Errorf(events.CodeInvalid, "not a JSON object")
	}
	return json.RawMessage(b), true, nil
}

// isBotKind reports whether a seat's posted kind is a bot's level.
func isBotKind(kind string) bool { return kind != "" && kind != "person" }

// seatKinds are the choices of who plays a seat (a person, or a bot of each
// level), with chosen selected.
func seatKinds(cat i18n.Printer, chosen string) []option {
	out := []option{{Value: "person", Label: cat.T("lobby.kind.person"), Selected: chosen == "" || chosen == "person"}}
	return append(out, botLevels(cat, chosen)...)
}

// botLevels are the bot levels as choices, with chosen selected.
func botLevels(cat i18n.Printer, chosen string) []option {
	var out []option
	for l := engine.BotEasy; l <= engine.BotStrong; l++ {
		out = append(out, option{Value: l.String(), Label: cat.T("lobby.kind." + l.String()), Selected: chosen == l.String()})
	}
	return out
}
