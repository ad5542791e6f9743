package projections

import (
	"fmt"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections/outbox"
)

// owedByRow reports whether m is owed by its game's row (Batch.Turns,
// games.turn_mail) rather than written to the outbox by the append: a
// your-turn email to a seat that waits a grace, within which a later move
// may replace or drop it. One due at once (no grace: PBEM_MAIL_GRACE=0,
// a timeout's turns) has nothing to wait for and is written as every
// other email.
func owedByRow(m Mail) bool {
	return m.Kind == outbox.YourTurn && m.To.Seat >= 0 && m.Delay > 0
}

// TurnRow is the outbox row of the your-turn email t that game g owes,
// written when the mail worker claims it (its grace has ended): g is the
// game's row as it stands then, with its state snapshot, and evs its
// stream from TurnEvents(g, t) on, read after g (the state is g's
// snapshot advanced to g.Version: Advance). It is built as the append's own emails are (Projector.row), so
// the payload holds only the seat's own view: to the seat as it is held
// now (its name, address, language and token generation), the game's
// deadline now and, while the game is active and a person plays the
// seat, its legal moves now; its lines are the public lines of the
// events t.From to t.Version (the append that made the seat awaited),
// naming the players as they are now.
//
// What is true when read: the row owes t only while the seat is awaited
// since t.Version (a later move that leaves the seat drops t, a seat owed
// again replaces it, a take-back drops the moves' turns: turn_mail_next,
// migration 0104), so the moves the seat may play now are those it may
// still play when it reads the email; whatever the game did since
// t.Version is told by the email's story (notify.Story), read at send
// time, and the worker's freshness check skips the email if the seat has
// played or is no longer awaited by then. An element a previous release
// wrote with its payload (Turn.Payload) is sent with that payload.
//
// ok is false when g no longer has the seat. Errors: events that do not
// decode, an engine the registry lacks, Advance's.
func TurnRow(games engine.Registry, g *Game, evs []events.Event, t outbox.Turn) (row outbox.Row, ok bool, err error) {
	if t.Payload != nil {
		p, err := outbox.UnpackPayload(t.Payload)
		if err != nil {
			return outbox.Row{}, false, fmt.Errorf("projections: turn mail of game %s, seat %d: %w", g.ID, t.Seat, err)
		}
		return t.Row(g.ID, p), true, nil
	}
	s := g.SeatAt(t.Seat)
	if s == nil {
		return outbox.Row{}, false, nil
	}
	eng, ok := games[g.Game]
	if !ok {
		return outbox.Row{}, false, fmt.Errorf("projections: game %s uses unknown engine %q", g.ID, g.Game)
	}
	st, err := Advance(eng, g, evs)
	if err != nil {
		return outbox.Row{}, false, err
	}
	from := t.FirstVersion()
	a := Append{Before: g, After: g, Engine: eng}
	for _, e := range evs {
		if e.Version < from || e.Version > t.Version {
			continue
		}
		var ev engine.Event
		if !pbemevent.IsServiceEvent(e.Type) {
			if ev, err = pbemevent.Decode(eng, e); err != nil {
				return outbox.Row{}, false, err
			}
		}
		a.Events, a.Decoded = append(a.Events, e), append(a.Decoded, ev)
	}
	p := &Projector{Games: games, Game: g, State: st, Engine: eng}
	m := Mail{Kind: outbox.YourTurn, To: *s, Version: t.Version, Tells: TellsAppend,
		Delay: time.Duration(t.DueUS-t.AtUS) * time.Microsecond}
	r, err := p.row(a, m, p.book(a))
	if err != nil {
		return outbox.Row{}, false, err
	}
	return t.Row(g.ID, r.Payload), true, nil
}

// TurnEvents is the first version of the events TurnRow needs to write
// the your-turn email t of game g: those after g's snapshot, and those of
// the append that owed t.
func TurnEvents(g *Game, t outbox.Turn) int64 {
	return min(g.StateVersion+1, t.FirstVersion())
}
