package projections

import (
	"fmt"

	"pbem/engine"
	"pbem/events"
	"pbem/events/pbemevent"
)

// Advance decodes g's state snapshot (taken after g.StateVersion, see
// SnapshotEvery) with its engine eng and applies the engine events of
// evs between g.StateVersion and g.Version (evs in version order; others
// are skipped). It returns the state at g.Version and leaves g as it is:
// the state is encoded only when the projector writes the next snapshot.
// The game service catches its rows up with it, and so does the mail
// worker's claim of a your-turn email (TurnRow). Errors: a snapshot that
// does not decode; an *events.Error with CodeCorrupt when a take-back
// follows the snapshot (the projector stores the state with every
// take-back) or evs end before g.Version.
func Advance(eng engine.Game, g *Game, evs []events.Event) (engine.State, error) {
	st, err := eng.DecodeState(g.State)
	if err != nil {
		return nil, fmt.Errorf("projections: decode state of %s at version %d: %w", g.ID, g.StateVersion, err)
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
