package enginetest

import (
	"bytes"
	"fmt"

	"pbem/engine"
)

// checkReversible checks Game.Reversible on the events evs that seat's
// move just caused (after is the state once they are applied): it is a
// pure function of the events (the same answer twice, the events left
// as they were), an empty list is not reversible, and a reversible move
// neither ended the game nor involved anything hidden from its own seat
// (each event redacted for seat is the event itself: a card the seat did
// not know, drawn or turned up, is not in it). It reports whether the
// move was reversible.
func checkReversible(g engine.Game, after engine.State, seat int, evs []engine.Event) (bool, error) {
	if g.Reversible(nil) {
		return false, fmt.Errorf("Reversible(nil) is true: an empty list is not a move")
	}
	raw := mustJSON(evs)
	rev := g.Reversible(evs)
	if g.Reversible(evs) != rev {
		return false, fmt.Errorf("Reversible(%s) answers differently twice", raw)
	}
	if !bytes.Equal(mustJSON(evs), raw) {
		return false, fmt.Errorf("calling Reversible changed the events %s", raw)
	}
	if !rev {
		return false, nil
	}
	if after.Result() != nil {
		return false, fmt.Errorf("the move of seat %d ended the game but is reversible: %s", seat, raw)
	}
	for _, e := range evs {
		if r := mustJSON(g.Redact(e, seat)); !bytes.Equal(r, mustJSON(e)) {
			return false, fmt.Errorf("reversible move of seat %d has event %s, which seat %d sees as %s: it held something hidden from its own seat",
				seat, mustJSON(e), seat, r)
		}
	}
	return true, nil
}
