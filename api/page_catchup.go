package api

import (
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"pbem/engine/bagpipes"
	"pbem/engine/i18n"
	"pbem/engine/lords"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/events/play"
)

// catchUpBlock is the play page's "Since your last turn": the events the
// seat has not seen, grouped by player turn.
type catchUpBlock struct {
	// From is the version the lines start after; the live update sends it
	// back (?from=) so that the block only grows.
	From   int64
	Groups []catchUpGroup
}

// catchUpGroup is one player's turn (or the game's own events).
type catchUpGroup struct {
	Who   string
	Lines []catchUpLine
}

// catchUpLine is one event told as a sentence.
type catchUpLine struct {
	Version int64
	Text    string
}

// fromParam reads the ?from= of a live update: the version the open page's
// "Since your last turn" starts after, or -1 if absent. Errors: events.CodeInvalid.
func fromParam(c echo.Context) (int64, error) {
	s := c.QueryParam("from")
	if s == "" {
		return -1, nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, events.Errorf(events.CodeInvalid, "from: give the version the page's lines start after (a whole number from 0)")
	}
	return v, nil
}

// addCatchUp fills the page's "Since your last turn" for the seat of tok,
// records the visit (not for a live update, ?from=), and marks on the
// board the cards that changed since.
func (p *pages) addCatchUp(c echo.Context, d *playPage, cat i18n.Printer, tok string, names []string) error {
	keep, err := fromParam(c)
	if err != nil {
		return err
	}
	cu, err := p.svc.SeatCatchUp(c.Request().Context(), d.GameID, tok, d.Version, keep)
	if err != nil {
		return err
	}
	d.CatchUp = &catchUpBlock{From: cu.From, Groups: groupCatchUp(cat, cu.Lines, names)}
	if cu.Before == nil {
		return nil
	}
	switch before := cu.Before.(type) {
	case lords.View:
		if d.Lords != nil {
			markLordsChanges(lordsData(cat, before, names), d.Lords)
		}
	case bagpipes.View:
		if d.Bag != nil {
			markBagChanges(bagData(cat, before, names), d.Bag)
		}
	}
	return nil
}

// groupCatchUp groups consecutive lines under one heading (catchUpHead):
// a player's turn, the muster before the first turn, table talk, another
// act of a player's, or the game's own events.
func groupCatchUp(cat i18n.Printer, lines []play.CatchUpLine, names []string) []catchUpGroup {
	var out []catchUpGroup
	last := ""
	for _, l := range lines {
		key, who := catchUpHead(cat, l, names)
		if len(out) == 0 || key != last {
			out = append(out, catchUpGroup{Who: who})
			last = key
		}
		g := &out[len(out)-1]
		g.Lines = append(g.Lines, catchUpLine{Version: l.Version, Text: l.Text})
	}
	return out
}

// catchUpHead is the heading of a catch-up line's group, and the key that
// consecutive lines of the same group share. Only a game event (a move, or
// a step of the game's that names a seat) belongs to a seat's turn ("Ann's
// turn", the player who held the seat then). The service's events are no
// one's turn: the players' answers before the first turn, and its start,
// go under "Before the first turn"; table talk under "Table talk" (a line
// written between turns is no part of its author's turn); a player's other
// acts (a take-back) under the player's name; the rest (the deadline's,
// the organiser's, even when they name a seat) under "The game".
func catchUpHead(cat i18n.Printer, l play.CatchUpLine, names []string) (key, who string) {
	player := func(seat int) string {
		if l.Who != "" {
			return l.Who // the seat's holder when it acted
		}
		return seatName(names, seat)
	}
	switch {
	case l.Type == pbemevent.TypeChat:
		return "chat", cat.T("catchup.chat")
	case slices.Contains(pbemevent.MusterAnswers, l.Type):
		return "muster", cat.T("catchup.muster")
	case pbemevent.IsServiceEvent(l.Type):
		if seat, ok := pbemevent.SeatOfActor(l.Actor); ok {
			return "seat:" + strconv.Itoa(seat), player(seat)
		}
	case l.Seat >= 0:
		return "turn:" + strconv.Itoa(l.Seat), cat.T("catchup.turn_of", player(l.Seat))
	}
	return "game", cat.T("catchup.game")
}

// markLordsChanges marks the Lords of Scotland cards of now that were not
// at the same place, the same side up, in before.
func markLordsChanges(before, now *lordsPage) {
	markCards(before.Hand, now.Hand)
	markCards(before.Recruits, now.Recruits)
	markCards(before.Supporters, now.Supporters)
	for i := range now.Seats {
		var army, claimed []lordsCard
		for _, s := range before.Seats {
			if s.Seat == now.Seats[i].Seat {
				army, claimed = s.Army, s.Claimed
			}
		}
		markCards(army, now.Seats[i].Army)
		markCards(claimed, now.Seats[i].Claimed)
	}
}

// markCards marks each known card of now that before did not hold with
// the same rank and side up (cards this seat cannot see are never marked).
func markCards(before, now []lordsCard) {
	had := map[string]int{}
	key := func(c lordsCard) string { return strconv.Itoa(c.Rank) + ":" + strconv.FormatBool(c.Down) }
	for _, c := range before {
		if !c.Back && !c.Empty {
			had[key(c)]++
		}
	}
	for i, c := range now {
		if c.Back || c.Empty {
			continue
		}
		if had[key(c)] > 0 {
			had[key(c)]--
			continue
		}
		now[i].Changed = true
	}
}

// markBagChanges marks the Swords and Bagpipes cards of now (the hand and
// each player's table) that were not at the same place in before, and the
// players whose public counts (gold, units, cards, daggers, side) changed.
func markBagChanges(before, now *bagPage) {
	markBagCards(before.Hand, now.Hand)
	for i := range now.Players {
		n := &now.Players[i]
		if i >= len(before.Players) { // both list the players by seat
			markBagCards(nil, n.Table)
			continue
		}
		b := before.Players[i]
		markBagCards(b.Table, n.Table)
		n.Changed = b.Gold != n.Gold || b.Castle != n.Castle || b.Camp != n.Camp || b.Cards != n.Cards ||
			b.Daggers != n.Daggers || b.Side != n.Side
	}
}

// markBagCards marks each card of now that before did not hold (by name,
// doubled or not).
func markBagCards(before, now []bagCard) {
	had := map[string]int{}
	key := func(c bagCard) string { return strings.Join([]string{c.Name, strconv.FormatBool(c.X2)}, "\x00") }
	for _, c := range before {
		had[key(c)]++
	}
	for i, c := range now {
		if had[key(c)] > 0 {
			had[key(c)]--
			continue
		}
		now[i].Changed = true
	}
}
