package enginetest

import (
	"bytes"
	"fmt"
	"slices"

	"pbem/engine"
)

// checkForced checks State.Forced in state s: a forced move is listed,
// and is then the only legal move of its seat; a seat not to move has no
// forced move; and, when o.Plant is set, whether a seat's step is forced
// does not change for any other seat (Spectator included) when a card
// hidden from that other seat changes (chosen by k). That is the rule of
// fair play for forced steps: the service plays them at once, so the
// table sees that they were forced, and it must have known it already.
// It counts the forced steps seen in stats.
func checkForced(s engine.State, o Options, k int, stats *Stats) error {
	forced := make([]bool, s.Players())
	for q := range s.Players() {
		f := s.Forced(q)
		if f == nil {
			continue
		}
		forced[q] = true
		if !slices.Contains(s.ToMove(), q) {
			return fmt.Errorf("seat %d not to move has a forced move %s", q, mustJSON(f))
		}
		legal := s.Legal(q)
		if len(legal) != 1 || !bytes.Equal(withoutLabel(mustJSON(f)), withoutLabel(mustJSON(legal[0]))) {
			return fmt.Errorf("seat %d's forced move %s is not its only legal move (%d listed)", q, mustJSON(f), len(legal))
		}
		stats.Forced++
	}
	if o.Plant == nil {
		return nil
	}
	for viewer := engine.Spectator; viewer < s.Players(); viewer++ {
		planted, ok := o.Plant(s, viewer, k)
		if !ok {
			continue
		}
		for q := range s.Players() {
			if q == viewer {
				continue
			}
			if got := planted.Forced(q) != nil; got != forced[q] {
				return fmt.Errorf("whether seat %d's step is forced (%v) changes to %v with a card hidden from seat %d", q, forced[q], got, viewer)
			}
		}
	}
	return nil
}
