package api

import (
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events"
	"pbem/events/play"
	"pbem/projections"
)

// The pages of the records (issue #46): the record on My games with the
// choice to be listed, each game's leaderboard, and the reliability of
// the invited addresses on the organiser's confirmation page.

// recordView is a person's record as My games shows it, in words.
type recordView struct {
	Games       string
	Reliability string
	Quickness   string
	Ratings     []ratingRow
	Listed      bool
	// Boards are the leaderboards' links, one per game.
	Boards []boardLink
}

// ratingRow is one rating, ready to show.
type ratingRow struct {
	Game, Name        string
	Rating, RD, Games string
	Bot               bool
}

// boardLink is a link to a game's leaderboard.
type boardLink struct{ Href, Game string }

// recordOf says r in cat's language.
func (p *pages) recordOf(cat i18n.Printer, r *projections.PersonRecord, listed bool) *recordView {
	v := &recordView{Listed: listed, Boards: p.boards(cat)}
	v.Games = cat.T("record.games", r.GamesPlayed) + " · " + cat.T("record.finished", r.GamesFinished) + " · " +
		cat.T("record.won", r.GamesWon) + " · " + cat.T("record.abandoned", r.GamesAbandoned)
	v.Reliability = reliabilityWords(cat, r.ReliabilityWord)
	if r.TurnsOwed > 0 {
		v.Reliability += " · " + cat.T("record.turns", r.TurnsOwed-r.TurnsTimedOut, r.TurnsOwed)
	}
	v.Quickness = cat.T("record.noquickness")
	if r.MedianMoveSeconds != nil {
		v.Quickness = cat.T("record.quickness", spanWords(cat, time.Duration(*r.MedianMoveSeconds*float64(time.Second))))
	}
	for _, x := range r.Ratings {
		v.Ratings = append(v.Ratings, ratingRowOf(cat, x))
	}
	return v
}

// boards are the links to every game's leaderboard, by the games' names.
func (p *pages) boards(cat i18n.Printer) []boardLink {
	games := p.svc.Games()
	slices.Sort(games)
	var out []boardLink
	for _, g := range games {
		out = append(out, boardLink{Href: "/leaderboards/" + g, Game: gameName(cat, g)})
	}
	return out
}

// ratingRowOf says rating x in cat's language: rounded to the point, a
// bot named by its level.
func ratingRowOf(cat i18n.Printer, x projections.Rating) ratingRow {
	r := ratingRow{Game: gameName(cat, x.Game), Name: x.Name, Rating: strconv.Itoa(int(math.Round(x.Rating))),
		RD: strconv.Itoa(int(math.Round(x.RD))), Games: strconv.Itoa(x.Games), Bot: x.Bot != ""}
	if r.Bot {
		r.Name = projections.BotLevelName(cat.Lang(), x.Bot)
	}
	return r
}

// reliabilityWords translates a record's word ("new", "reliable",
// "often late").
func reliabilityWords(cat i18n.Printer, word string) string {
	switch word {
	case projections.ReliabilityReliable:
		return cat.T("record.reliable")
	case projections.ReliabilityOftenLate:
		return cat.T("record.late")
	}
	return cat.T("record.new")
}

// spanWords says a time to move: minutes below two hours, hours below
// two days, else days.
func spanWords(cat i18n.Printer, d time.Duration) string {
	switch {
	case d < 2*time.Hour:
		return cat.T("record.minutes", int(math.Round(d.Minutes())))
	case d < 48*time.Hour:
		return cat.T("lobby.hours", int(math.Round(d.Hours())))
	}
	return cat.T("lobby.days", int(math.Round(d.Hours()/24)))
}

// setListed: POST /me/leaderboards (form: csrf, listed=on or nothing)
// records the session address's choice and goes back to My games.
func (p *pages) setListed(c echo.Context) error {
	if _, err := p.lobbyPost(c); err != nil {
		return err
	}
	err := p.svc.SetListed(c.Request().Context(), sessionOf(c), c.FormValue("listed") == "on")
	if play.ErrorCode(err) == events.CodeUnauthorized {
		return c.Redirect(http.StatusSeeOther, "/signin")
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/me#record")
}

// leaderboardPage is a game's leaderboard.
type leaderboardPage struct {
	base
	Game   string
	Rows   []ratingRow
	Boards []boardLink
}

// leaderboard: GET /leaderboards/:game.
func (p *pages) leaderboard(c echo.Context) error {
	game := c.Param("game")
	rs, err := p.svc.Leaderboard(c.Request().Context(), game)
	if err != nil {
		return err
	}
	lang := pickLang(c, "")
	cat := p.cat(lang)
	d := leaderboardPage{base: p.base(c, lang), Game: gameName(cat, game), Boards: p.boards(cat)}
	d.Title = cat.T("board.title", d.Game)
	for _, x := range rs {
		d.Rows = append(d.Rows, ratingRowOf(cat, x))
	}
	return p.render(c, http.StatusOK, "leaderboard", d)
}

// reliabilityOf says in words how reliable each invited address of r is
// (those that played before), for the organiser's confirmation page.
func (p *pages) reliabilityOf(c echo.Context, cat i18n.Printer, r *play.Recap) (map[string]string, error) {
	var emails []string
	for _, pl := range r.Game.Players {
		if pl.Bot == "" {
			emails = append(emails, pl.Email)
		}
	}
	words, err := p.svc.Reliability(c.Request().Context(), emails)
	if err != nil {
		return nil, fmt.Errorf("api: reliability of the invited: %w", err)
	}
	for e, w := range words {
		words[e] = reliabilityWords(cat, w)
	}
	return words, nil
}

// changeRow is one seat's rating before and after a finished game.
type changeRow struct {
	Name, Before, After, Change string
}

// ratingChanges are the rating changes of finished game id, ready to
// show (none when the server keeps no records, or before it folded the
// game).
func (p *pages) ratingChanges(c echo.Context, cat i18n.Printer, id string) ([]changeRow, error) {
	if !p.svc.KeepsRecords() {
		return nil, nil
	}
	cs, err := p.svc.GameRatings(c.Request().Context(), id)
	if err != nil {
		return nil, err
	}
	var out []changeRow
	for _, x := range cs {
		r := changeRow{Name: x.Name, Before: strconv.Itoa(int(math.Round(x.Before.R))), After: strconv.Itoa(int(math.Round(x.After.R)))}
		if x.Bot != "" {
			r.Name = projections.BotLevelName(cat.Lang(), x.Bot)
		}
		d := int(math.Round(x.After.R)) - int(math.Round(x.Before.R))
		r.Change = strconv.Itoa(d)
		if d > 0 {
			r.Change = "+" + r.Change
		}
		out = append(out, r)
	}
	return out, nil
}
