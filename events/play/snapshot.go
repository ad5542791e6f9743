package play

import (
	"context"
	"fmt"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
	"pbem/projections"
)

// catchUp brings the state of g, its snapshot taken after g.StateVersion
// (see projections.SnapshotEvery), up to g.Version with the events that
// follow the snapshot (advance). It returns the state and leaves g as it
// is.
func (s *Service) catchUp(ctx context.Context, g *projections.Game) (engine.State, error) {
	var evs []events.Event
	if g.StateVersion < g.Version {
		var err error
		if evs, err = s.store.ReadStream(ctx, g.ID, g.StateVersion+1); err != nil {
			return nil, err
		}
	}
	return s.advance(g, evs)
}

// advance decodes g's snapshot and applies the engine events of evs
// between g.StateVersion and g.Version (evs in version order; others are
// skipped). It returns the state at g.Version and leaves g as it is: the
// state is encoded only when the projector writes the next snapshot.
func (s *Service) advance(g *projections.Game, evs []events.Event) (engine.State, error) {
	eng, err := s.engineOf(g)
	if err != nil {
		return nil, err
	}
	st, err := eng.DecodeState(g.State)
	if err != nil {
		return nil, fmt.Errorf("play: decode state of %s at version %d: %w", g.ID, g.StateVersion, err)
	}
	if g.StateVersion >= g.Version {
		return st, nil
	}
	span := pbemevent.Span{After: g.StateVersion, Before: g.Version + 1}
	at := g.StateVersion // the last version of evs within span
	for _, e := range evs {
		if !span.Holds(e.Version) {
			continue // before the snapshot, or appended after the row was read
		}
		at = e.Version
		if e.Type == pbemevent.TypeTakeback {
			// The projector stores the state with every take-back.
			return nil, events.Errorf(events.CodeCorrupt, "game %s: its state snapshot (v%d) precedes the take-back at v%d", g.ID, g.StateVersion, e.Version)
		}
	}
	if err := pbemevent.StandingEvents(eng, evs, span, func(_ events.Event, ev engine.Event) { st.Apply(ev) }); err != nil {
		return nil, err
	}
	if at != g.Version {
		return nil, events.Errorf(events.CodeCorrupt, "game %s is at version %d but its events end at %d", g.ID, g.Version, at)
	}
	return st, nil
}
