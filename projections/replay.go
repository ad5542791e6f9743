package projections

import (
	"context"
	"slices"
	"time"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
)

// Replay folds a game's whole stream into a Change, as a rebuild writes it.
// live gives the primary data (seats, admin token hash). It returns the
// events read. Errors: an *events.Error with CodeCorrupt for a game without events.
func Replay(ctx context.Context, games engine.Registry, store events.Store, live *Game) (*Change, []events.Event, error) {
	evs, err := store.ReadStream(ctx, live.ID, 1)
	if err != nil {
		return nil, nil, err
	}
	if len(evs) == 0 {
		return nil, nil, events.Errorf(events.CodeCorrupt, "game %s has no events", live.ID)
	}
	shell := &Game{ID: live.ID, Seats: slices.Clone(live.Seats), AdminHash: live.AdminHash, Former: live.Former}
	p := &Projector{Games: games, Game: shell, Now: func(e events.Event) time.Time { return e.RecordedAt },
		Rewind: func(from int64) (engine.State, error) {
			_, st, err := pbemevent.StateBefore(games, evs, from)
			return st, err
		}}
	if _, err := p.Apply(evs, nil); err != nil {
		return nil, nil, err
	}
	return &Change{Game: p.Game}, evs, nil
}
