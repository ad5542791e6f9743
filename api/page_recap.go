package api

import (
	"cmp"
	"encoding/json"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/engine"
	"pbem/engine/i18n"
	"pbem/events/pbemevent"
	"pbem/events/play"
	"pbem/projections"
)

// confirmRecap is the proposed game as the confirmation page shows it,
// every word in the page's language: what the organiser confirms.
type confirmRecap struct {
	Game string
	// Options are the game's chosen options and variants, each in words
	// ("Bruce's army", "Number of rounds: 3"); empty: the base game.
	Options []string
	// Language is the game's language (its own name).
	Language string
	Players  []recapPlayer
	Deadline string
	Policy   string
	// Away is what a player's away does in the game, in words.
	Away      string
	Organiser string
	// Expires is when the link stops working (zero when it was used).
	Expires *when
	// Muster says the muster before the first turn in words (page_muster.go).
	Muster string
}

// recapPlayer is one seat of the recap.
type recapPlayer struct {
	Name string
	// Email is a person's address; Bot a bot's level in words.
	Email, Bot string
	// Language is the language the player reads (its own name).
	Language string
	// Reliability is how reliable the address has been in its games, in
	// words ("" for an address new to this server).
	Reliability string
}

// recap turns a proposal into its recap in cat's language.
func (p *pages) recap(c echo.Context, cat i18n.Printer, r *play.Recap) *confirmRecap {
	g := r.Game
	d := &confirmRecap{Game: gameName(cat, g.Game), Language: langName(g.Language),
		Deadline: durationWords(cat, g.TurnDeadline), Options: optionWords(p.svc, cat, g)}
	policy := g.TimeoutPolicy
	if policy == "" {
		policy = projections.PolicyDefaultMove
	}
	d.Policy = textOr(cat, "lobby.policy."+policy, policy)
	away := cmp.Or(g.AwayPolicy, pbemevent.AwayWait)
	d.Away = textOr(cat, "lobby.away."+away, away)
	d.Muster = musterWords(cat, g.Muster, g.MusterDefault)
	d.Organiser = r.Organiser.Email
	if r.Organiser.Name != "" {
		d.Organiser = r.Organiser.Name + " · " + r.Organiser.Email
	}
	for _, pl := range g.Players {
		rp := recapPlayer{Name: pl.Name, Email: pl.Email}
		if pl.Bot != "" {
			rp.Email, rp.Bot = "", textOr(cat, "lobby.kind."+pl.Bot, pl.Bot)
		} else {
			l := pl.Language
			if l == "" {
				l = g.Language
			}
			rp.Language = langName(l)
		}
		d.Players = append(d.Players, rp)
	}
	if !r.Confirmed && !r.ExpiresAt.IsZero() {
		w := tellTime(cat, r.ExpiresAt, p.svc.Now(), location(c))
		d.Expires = &w
	}
	return d
}

// langName is a language's name in itself ("Français"); English for "".
func langName(lang string) string {
	return pageCatalog.T(i18n.Norm(lang), "lang.name")
}

// durationWords says a turn's time as the lobby's choices do: whole days
// beyond two days, else hours (the default when d is 0).
func durationWords(cat i18n.Printer, d time.Duration) string {
	if d <= 0 {
		d = projections.DefaultTurnDeadline
	}
	h := int((d + time.Hour - 1) / time.Hour)
	if h > 48 && h%24 == 0 {
		return cat.T("lobby.days", h/24)
	}
	return cat.T("lobby.hours", h)
}

// optionWords are the options of g that differ from the base game, in
// cat's language: a bool option on by its label, a choice or a number as
// "Label: value", a document (a custom card set) by its label.
func optionWords(svc Reads, cat i18n.Printer, g play.CreateGame) []string {
	st, ok := svc.Settings(g.Game, cat.Lang())
	if !ok {
		return nil
	}
	var chosen map[string]json.RawMessage
	if len(g.Options) > 0 && json.Unmarshal(g.Options, &chosen) != nil {
		return nil
	}
	var out []string
	for _, o := range st.Options {
		raw, set := chosen[o.Key]
		if !set {
			continue
		}
		switch o.Type {
		case engine.OptionBool:
			var on bool
			if json.Unmarshal(raw, &on) == nil && on {
				out = append(out, o.Label)
			}
		case engine.OptionChoice:
			var v string
			if json.Unmarshal(raw, &v) != nil {
				continue
			}
			label := v
			for _, x := range o.Values {
				if x.Value == v {
					label = x.Label
				}
			}
			out = append(out, o.Label+i18n.Colon(cat.Lang())+label)
		case engine.OptionNumber:
			var n int
			if json.Unmarshal(raw, &n) == nil {
				out = append(out, o.Label+i18n.Colon(cat.Lang())+strconv.Itoa(n))
			}
		case engine.OptionDocument:
			out = append(out, o.Label)
		}
	}
	return out
}
