package postgres

import (
	"context"
	"fmt"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// Streams reads a game's events: the event store (events.Store's
// ReadStream).
type Streams interface {
	ReadStream(ctx context.Context, stream string, from int64) ([]events.Event, error)
}

// Histories tells the games' histories that emails quote (an email's
// story, a round's summary, a digest's table talk) from their events: the
// history is not stored (projections.SeatHistory).
type Histories struct {
	// Games are the engines of the games.
	Games engine.Registry
	// Events reads the games' streams.
	Events Streams
}

// seat is game g's history after version after as seat sees it
// (engine.Spectator: the public one). g is read before the events.
func (h Histories) seat(ctx context.Context, g *projections.Game, seat int, after int64) ([]projections.HistoryRow, []events.Event, error) {
	if h.Events == nil {
		return nil, nil, fmt.Errorf("notify/postgres: no event store to tell the history of %s", g.ID)
	}
	evs, err := h.Events.ReadStream(ctx, g.ID, after+1)
	if err != nil {
		return nil, nil, err
	}
	rows, err := projections.SeatHistory(h.Games, g, evs, seat)
	return rows, evs, err
}

// endedRound is one round of a game as a seat sees it: its engine
// events (each redacted for the seat), and the version of the one that
// ended it.
type endedRound struct {
	end int64
	evs []engine.Event
}

// endedRounds is every round of game g ended at or before version upto,
// oldest first, from the engine events that stand then as seat sees them
// (each redacted for it): a move taken back is not in them
// (pbemevent.StandingEvents, the replay's skip rule), as it is not in the
// state the play page shows. A round runs from just after the previous
// round's end (or the first event) to its own end (Game.RoundEnd).
func (h Histories) endedRounds(ctx context.Context, g *projections.Game, eng engine.Game, seat int, upto int64) ([]endedRound, error) {
	if h.Events == nil {
		return nil, fmt.Errorf("notify/postgres: no event store to tell the rounds of %s", g.ID)
	}
	evs, err := h.Events.ReadStream(ctx, g.ID, 1)
	if err != nil {
		return nil, err
	}
	var out []endedRound
	var round []engine.Event
	err = pbemevent.StandingEvents(eng, evs, pbemevent.Span{Before: upto + 1}, func(e events.Event, ev engine.Event) {
		round = append(round, eng.Redact(ev, seat))
		if eng.RoundEnd(ev) {
			out = append(out, endedRound{end: e.Version, evs: round})
			round = nil
		}
	})
	return out, err
}
