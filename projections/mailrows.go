package projections

import (
	"cmp"
	"fmt"
	"slices"

	"pbem/engine"
	"pbem/events/pbemevent"
	"pbem/projections/outbox"
)

// rows are the outbox rows of mails, the emails append a owes (Owed), as
// the game after it (p.Game, with its new deadline, and p.State) tells
// them.
func (p *Projector) rows(a Append, mails []Mail) ([]outbox.Row, error) {
	if len(mails) == 0 {
		return nil, nil
	}
	lines := p.book(a)
	out := make([]outbox.Row, 0, len(mails))
	for _, m := range mails {
		r, err := p.row(a, m, lines)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// book is the line book of a's events, each told with the players' names
// as they were just after it.
func (p *Projector) book(a Append) *lineBook {
	b := &lineBook{}
	players := a.Before.Players
	for i, e := range a.Events {
		players = PlayersAfter(players, e)
		b.add(p.Engine, e, a.Decoded[i], players)
	}
	return b
}

// row is the outbox row of m, written in the language its reader reads
// (Game.SeatLanguage; a person who left, their own or the game's): the
// game's result once it has one, and to a person's seat of an active game
// whether it is awaited and its legal moves (a seat a bot plays gets
// neither).
func (p *Projector) row(a Append, m Mail, lines *lineBook) (outbox.Row, error) {
	g, s := p.Game, m.To
	lang := g.SeatLanguage(s.Seat)
	if s.Seat < 0 {
		lang = cmp.Or(s.Language, g.Language)
	}
	told, err := tells(a, m, lang, lines)
	if err != nil {
		return outbox.Row{}, err
	}
	pl := outbox.NewPayload(outbox.Head{
		To:       outbox.Recipient{Seat: s.Seat, Name: s.Name, Email: s.Email},
		Language: lang,
		Game:     outbox.GameInfo{ID: g.ID, Name: g.Game, Players: g.Players, Bots: g.Bots()},
		TokenGen: s.TokenGen,
		Version:  m.Version,
		Deadline: g.DeadlineAt,
		Lines:    told,
	})
	if g.Result != nil {
		tellResult(&pl, g, p.State, lang)
	}
	if g.Status == StatusAborted {
		pl.Summary = DescribeService(pbemevent.TypeAborted, nil, g.Players, lang)
	}
	if g.Status == StatusActive && p.State != nil && s.Bot == "" && s.Seat >= 0 {
		pl.Awaited = slices.Contains(g.ToMove, s.Seat)
		legal := speak(g, p.State, lang).Legal(s.Seat)
		pl.Moves, pl.Choice = Labels(legal), ChoiceTag(legal)
	}
	pl.Notice = m.Notice
	pl.Muster = g.Status == StatusMuster
	row := outbox.Row{GameID: g.ID, Kind: m.Kind, Payload: pl, EventVersion: m.Version, Delay: m.Delay}
	if s.Seat >= 0 {
		row.Seat = &s.Seat
	}
	return row, nil
}

// tellResult puts the result of the finished game g in pl, told in lang
// from its final state st by what decided the ranking (Standings); from
// the recorded result alone (ResultSummary) where st is not at hand.
func tellResult(pl *outbox.Payload, g *Game, st engine.State, lang string) {
	if t := Standings(g, st, lang); t != nil {
		pl.Summary, pl.Columns = t.Summary, t.Columns
		for _, r := range t.Rows {
			pl.Ranking = append(pl.Ranking, outbox.Rank{Seat: r.Seat, Name: seatName(g.Players, r.Seat), Place: r.Place, Cells: r.Cells})
		}
		return
	}
	for _, r := range Rankings(g.Result, g.Players) {
		pl.Ranking = append(pl.Ranking, outbox.Rank{Seat: r.Seat, Name: r.Name, Place: r.Place, Score: r.Score})
	}
	pl.Summary = ResultSummary(g.Result, g.Players, lang)
}

// tells is the lines m tells, in lang.
func tells(a Append, m Mail, lang string, lines *lineBook) ([]string, error) {
	switch m.Tells {
	case TellsAppend:
		return lines.toSeat(lang, m.To.Seat)
	case TellsChat:
		for _, e := range a.Events {
			if e.Version == m.Version {
				return []string{DescribeService(pbemevent.TypeChat, e.Data, a.After.Players, lang)}, nil
			}
		}
		return nil, fmt.Errorf("projections: %s: no event v%d to tell", a.After.ID, m.Version)
	}
	return nil, nil
}

// BotPlayedKind reports whether an email of kind goes to the person of a
// seat a bot plays: the notices (who plays, pauses) and the game's result,
// never a turn, a timeout, a round or table talk.
func BotPlayedKind(kind outbox.Kind) bool { return kind == outbox.Notice || kind == outbox.GameOver }
