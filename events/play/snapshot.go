package play

import (
	"context"

	"pbem/engine"
	"pbem/events"
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

// advance is projections.Advance with g's engine: the state at g.Version
// from g's snapshot and the events of evs that follow it.
func (s *Service) advance(g *projections.Game, evs []events.Event) (engine.State, error) {
	eng, err := s.engineOf(g)
	if err != nil {
		return nil, err
	}
	return projections.Advance(eng, g, evs)
}
