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

// Histories tells the games' histories that emails quote (a your-turn
// email's story, a round's summary, a digest's table talk) from their
// events: the history is not stored (projections.SeatHistory).
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

// standing is the engine events of game id that stand at version upto, as
// seat sees them (each redacted for it): a move taken back by then is not
// among them (pbemevent.StandingEvents, the replay's skip rule).
func (h Histories) standing(ctx context.Context, id string, eng engine.Game, seat int, upto int64) ([]engine.Event, error) {
	if h.Events == nil {
		return nil, fmt.Errorf("notify/postgres: no event store to tell the history of %s", id)
	}
	evs, err := h.Events.ReadStream(ctx, id, 1)
	if err != nil {
		return nil, err
	}
	var out []engine.Event
	err = pbemevent.StandingEvents(eng, evs, pbemevent.Span{Before: upto + 1}, func(_ events.Event, ev engine.Event) {
		out = append(out, eng.Redact(ev, seat))
	})
	return out, err
}
