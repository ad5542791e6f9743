package api

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/events/play"
)

// A refused lobby form is shown again as it was sent, with every reason
// it was refused for at once (the service's and the form's own:
// play.Refusals), each beside its field, and a summary above the form
// that lists them all in the form's order, each a link to its field; the
// summary is the page's one alert, and each field names its error with
// aria-describedby (the pattern of the GOV.UK error summary).

// formProblem is one line of the summary: the reason, told with the
// field it is about, and the link to that field ("" for a reason no
// field explains, such as a game language the server does not speak).
type formProblem struct {
	Text, Href string
}

// lobbyError shows the lobby form again, filled in, with every reason err
// gives beside its field and in the summary, in the page's language.
func (p *pages) lobbyError(c echo.Context, lang, sess string, err error) error {
	d := p.lobbyData(c, lang, sess)
	cat := p.cat(lang)
	reasons := play.AllRefusals(err)
	var loose []string
	for _, reason := range reasons {
		if play.ErrorField(reason) == "organiser.name" && d.Organiser.Name == "" && refuses(reasons, "organiser.email") {
			// The form takes the organiser's name from the player of
			// their address: with no good address, it cannot tell yet
			// whether a name is wanted.
			continue
		}
		if !d.place(cat, reason) {
			loose = append(loose, errorDetail(cat, reason))
		}
	}
	d.summarise(cat, loose)
	return p.render(c, http.StatusBadRequest, "lobby", d)
}

// refuses reports whether one of reasons is about field.
func refuses(reasons []error, field string) bool {
	return slices.ContainsFunc(reasons, func(r error) bool { return play.ErrorField(r) == field })
}

// reSameAddress reads the seat a player's address is already the address
// of, in the service's refusal ("... is already the address of players[0]").
var reSameAddress = regexp.MustCompile(`is already the address of players\[(\d+)\]`)

// place puts a reason beside the field it names, in cat's words; false
// when no field of the form is that one.
func (d *lobbyPage) place(cat i18n.Printer, reason error) bool {
	field, msg := play.ErrorField(reason), play.ErrorMessage(reason)
	for i := range d.Options {
		if d.Options[i].Key == field {
			// The engine's message starts with the option's key and a
			// colon in its language (option.field): beside the field,
			// the label says which it is.
			d.Options[i].Error = msg
			for _, lang := range i18n.Languages {
				if rest, ok := strings.CutPrefix(msg, field+i18n.Colon(lang)); ok {
					d.Options[i].Error = rest
					break
				}
			}
			return true
		}
	}
	blocked := strings.Contains(msg, "does not accept invitations")
	switch field {
	case "organiser.name":
		d.Organiser.NameError = cat.T("lobby.err.organiser_name")
		return true
	case "organiser.email":
		d.Organiser.EmailError = cat.T("lobby.err.email")
		if blocked {
			d.Organiser.EmailError = cat.T("lobby.err.blocked")
		}
		return true
	}
	for i := range d.Seats {
		k := strconv.Itoa(i)
		switch field {
		case "players[" + k + "].name":
			d.Seats[i].NameError = cat.T("lobby.err.name")
			return true
		case "players[" + k + "].email":
			d.Seats[i].EmailError = cat.T("lobby.err.email")
			if blocked {
				d.Seats[i].EmailError = cat.T("lobby.err.blocked")
			}
			if m := reSameAddress.FindStringSubmatch(msg); m != nil {
				// Both seats are marked, each naming the other.
				j, _ := strconv.Atoi(m[1])
				if j >= 0 && j < len(d.Seats) && j != i {
					d.Seats[i].EmailError = cat.T("lobby.err.email_twice", d.Seats[j].label(cat))
					d.Seats[j].EmailError = cat.T("lobby.err.email_twice", d.Seats[i].label(cat))
				}
			}
			return true
		}
	}
	return false
}

// label names a seat of the form for a message: its player's name, else
// "Player 2".
func (s lobbySeat) label(cat i18n.Printer) string {
	if n := strings.TrimSpace(s.Name); n != "" {
		return n
	}
	return cat.T("lobby.player", s.N)
}

// summarise lists the form's problems for its summary, in the form's
// order: the seats' fields, the options, the organiser's, then the
// reasons no field explains (loose).
func (d *lobbyPage) summarise(cat i18n.Printer, loose []string) {
	add := func(where, msg, id string) {
		if msg != "" {
			d.Problems = append(d.Problems, formProblem{Text: cat.T("lobby.problem", where, msg), Href: "#" + id})
		}
	}
	for _, s := range d.Seats {
		who := cat.T("lobby.player", s.N)
		add(cat.T("lobby.problem_field", who, cat.T("lobby.name")), s.NameError, "name"+strconv.Itoa(s.N))
		add(cat.T("lobby.problem_field", who, cat.T("lobby.email")), s.EmailError, "email"+strconv.Itoa(s.N))
	}
	for _, o := range d.Options {
		add(o.Label, o.Error, "f-"+o.Key)
	}
	org := cat.T("lobby.organiser")
	add(cat.T("lobby.problem_field", org, cat.T("lobby.email")), d.Organiser.EmailError, "organiser_email")
	add(cat.T("lobby.problem_field", org, cat.T("lobby.organiser_name")), d.Organiser.NameError, "organiser_name")
	for _, msg := range loose {
		d.Problems = append(d.Problems, formProblem{Text: msg})
	}
}
