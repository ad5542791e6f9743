package projections

import (
	"encoding/json"
	"pbem/events/pbemevent"
	"strconv"
	"strings"
	"time"

	"pbem/engine"
	"pbem/engine/i18n"
)

// DescribeService is the one-line summary of a service event in lang. A
// payload that does not decode (a corrupt record: verify reports it) gets
// a line saying so rather than a summary with empty fields.
func DescribeService(typ string, data json.RawMessage, names []string, lang string) string {
	p := texts.In(lang)
	line, err := describeService(p, typ, data, names)
	if err != nil {
		return p.T("unreadable")
	}
	return line
}

// describeService formats a service event; an error when data does not
// decode. An event type without a text describes as itself.
func describeService(p i18n.Printer, typ string, data json.RawMessage, names []string) (string, error) {
	name := func(seat int) string {
		if seat >= 0 && seat < len(names) {
			return names[seat]
		}
		return p.T("seat", seat)
	}
	decode := func(v any) error {
		if len(data) == 0 {
			return nil
		}
		return json.Unmarshal(data, v)
	}
	switch typ {
	case pbemevent.TypeCreated, pbemevent.TypeAccepted, pbemevent.TypeDeclined, pbemevent.TypeMustered:
		return describeMuster(p, typ, decode, name)
	case pbemevent.TypeTimeout:
		var t pbemevent.Timeout
		err := decode(&t)
		return p.T(typ, seatList(t.Seats, name), word(p, "policy.", t.Policy)), err
	case pbemevent.TypeExtended:
		var x pbemevent.Extended
		err := decode(&x)
		by, perr := time.ParseDuration(x.By)
		if err == nil && perr != nil {
			err = perr
		}
		return p.T(typ, duration(p, by)), err
	case pbemevent.TypeLinkResent:
		var l pbemevent.LinkResent
		err := decode(&l)
		return p.T(typ, name(l.Seat)), err
	case pbemevent.TypeSeatBot:
		var sb pbemevent.SeatBot
		err := decode(&sb)
		if sb.Bot == "" {
			return p.T(pbemevent.TypeSeatBot+".back", name(sb.Seat)), err
		}
		return p.T(typ, name(sb.Seat), word(p, "bot.", sb.Bot)), err
	case pbemevent.TypeChat:
		var c pbemevent.Chat
		err := decode(&c)
		return p.T(typ, name(c.Seat), c.Text), err
	case pbemevent.TypeEmailChanged:
		var x pbemevent.EmailChanged
		err := decode(&x)
		return p.T(typ, name(x.Seat)), err
	case pbemevent.TypePlayerReplaced:
		var x pbemevent.PlayerReplaced
		err := decode(&x)
		return p.T(typ, x.Name, x.Previous), err
	case pbemevent.TypeLanguage:
		var x pbemevent.Language
		err := decode(&x)
		return p.T(typ, name(x.Seat), word(p, "language.", x.Language)), err
	case pbemevent.TypeRematch:
		var x pbemevent.Rematch // the new game's id is the audit's, not a player's
		err := decode(&x)
		return p.T(typ), err
	case pbemevent.TypeTakeback:
		var x pbemevent.Takeback // the version is the audit's
		err := decode(&x)
		return p.T(typ, name(x.Seat)), err
	case pbemevent.TypePaused:
		var x pbemevent.Paused
		err := decode(&x)
		if x.Reason != "" {
			return p.T(pbemevent.TypePaused+".reason", x.Reason), err
		}
		return p.T(typ), err
	case pbemevent.TypeAway, pbemevent.TypeBack:
		return describeAway(p, typ, data, name)
	case pbemevent.TypeResumed, pbemevent.TypeAborted, pbemevent.TypeAdminLinkRevoked:
		return p.T(typ), nil
	}
	return describeOther(p, typ, data)
}

// describeAway formats pbem.away or pbem.back.
func describeAway(p i18n.Printer, typ string, data json.RawMessage, name func(int) string) (string, error) {
	if typ == pbemevent.TypeBack {
		var x pbemevent.Back
		err := json.Unmarshal(data, &x)
		return p.T(typ, name(x.Seat)), err
	}
	var x pbemevent.Away
	err := json.Unmarshal(data, &x)
	if x.Effect == pbemevent.AwayBot {
		return p.T(typ+".bot", name(x.Seat), day(p, x.Date)), err
	}
	var most time.Duration
	if x.WaitUntil != nil {
		most = waitDays(x.WaitUntil.Sub(x.From))
	}
	return p.T(typ+".wait", name(x.Seat), day(p, x.Date), duration(p, most)), err
}

// waitDays is an away's wait d in whole days, counted to the hour and
// rounded up, so that the table's "for at most N days" stays true
// whatever the time of day the person went away: 2 days and 11 hours is
// at most 3 days, never 2.
func waitDays(d time.Duration) time.Duration {
	const day = 24 * time.Hour
	h := max(d.Round(time.Hour), time.Hour)
	return (h + day - 1) / day * day
}

// describeOther formats the service events describeService leaves:
// pbem.history_cut (the version the game went back to and the last one
// its emails had told of); any other type describes as itself.
func describeOther(p i18n.Printer, typ string, data json.RawMessage) (string, error) {
	if typ != pbemevent.TypeHistoryCut {
		return typ, nil
	}
	var x pbemevent.HistoryCut
	err := json.Unmarshal(data, &x)
	return p.T(typ, x.BackTo, x.Lost), err
}

// seatList names seats, by name(seat), separated by commas.
func seatList(seats []int, name func(int) string) string {
	who := make([]string, len(seats))
	for i, s := range seats {
		who[i] = name(s)
	}
	return strings.Join(who, ", ")
}

// day is a date of the form 2026-12-12 in words ("12 December"); as it
// is when it is not such a date.
func day(p i18n.Printer, date string) string {
	t, err := time.Parse(time.DateOnly, date)
	mo := strings.Split(p.T("months"), ",")
	if err != nil || len(mo) != 12 {
		return date
	}
	return strconv.Itoa(t.Day()) + " " + mo[t.Month()-1]
}

// duration is d in words: whole days, else whole hours, else minutes.
func duration(p i18n.Printer, d time.Duration) string {
	switch {
	case d >= 24*time.Hour && d%(24*time.Hour) == 0:
		return p.T("days", int(d/(24*time.Hour)))
	case d >= time.Hour && d%time.Hour == 0:
		return p.T("hours", int(d/time.Hour))
	}
	return p.T("minutes", int(d.Round(time.Minute)/time.Minute))
}

// ResultSummary is the one-line result of a finished game in lang, with the
// players' names, from its recorded result alone: who won, and no figure,
// for the recorded score is not always what ranked the seats (Swords and
// Bagpipes ranks by daggers once Scotland has fallen). Where the final
// state is at hand, Standings tells what decided.
func ResultSummary(r *engine.Result, names []string, lang string) string {
	var winners []string
	for _, s := range r.Ranking {
		if s.Place == 1 && s.Seat >= 0 && s.Seat < len(names) {
			winners = append(winners, names[s.Seat])
		}
	}
	switch len(winners) {
	case 0:
		return r.Summary
	case 1:
		return texts.T(lang, "result.win", winners[0])
	default:
		return texts.T(lang, "result.shared", strings.Join(winners, ", "))
	}
}

// describeMuster formats the creation (with or without a muster) and the
// muster's events (pbemevent/muster.go): a seat accepted or declined, the
// game began (naming the seats that declined or never answered).
func describeMuster(p i18n.Printer, typ string, decode func(any) error, name func(int) string) (string, error) {
	switch typ {
	case pbemevent.TypeCreated:
		var c pbemevent.Created
		err := decode(&c)
		if c.Muster != "" {
			return p.T(typ+".muster", strings.Join(c.Players, ", ")), err
		}
		return p.T(typ, strings.Join(c.Players, ", ")), err
	case pbemevent.TypeAccepted:
		var x pbemevent.Accepted
		err := decode(&x)
		return p.T(typ, name(x.Seat)), err
	case pbemevent.TypeDeclined:
		var x pbemevent.Declined
		err := decode(&x)
		return p.T(typ, name(x.Seat)), err
	}
	var x pbemevent.Mustered
	err := decode(&x)
	by := x.By
	if by != "deadline" {
		by = "all"
	}
	line := p.T(typ + "." + by)
	if x.Default == pbemevent.MusterAbort && len(x.Declined)+len(x.Silent) > 0 {
		line = p.T(typ + ".abort")
	}
	if len(x.Declined) > 0 {
		line += " " + p.T(typ+".declined", seatList(x.Declined, name))
	}
	if len(x.Silent) > 0 {
		line += " " + p.T(typ+".silent", seatList(x.Silent, name))
	}
	return line, err
}
