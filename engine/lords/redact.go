package lords

import "pbem/engine"

// Redact returns the version of e that seat may see (engine.Spectator: the
// public one). What is hidden: a card taken from a face-down recruit (but
// from its taker), every face-down replacement recruit, a card mustered
// face-down (but from its owner), a card drawn by Forsyth (but from the
// drawer), a face-down follower taken by Fergusson (but from the two
// players of the swap, who have both seen it).
func (g *Game) Redact(e engine.Event, seat int) engine.Event {
	switch e := e.(type) {
	case Recruited:
		if !e.FaceUp {
			if seat != e.Seat && e.Card != 0 {
				e.Card, e.Hidden = 0, true
			}
			e.Replacement = 0
		}
		return e
	case Mustered:
		if !e.FaceUp && seat != e.Seat && e.Card != 0 {
			e.Card, e.Hidden = 0, true
		}
		return e
	case PowerUsed:
		if e.Drawn != 0 && seat != e.Seat {
			e.Drawn, e.Hidden = 0, true
		}
		return e
	case Swapped:
		if !e.FaceUp && seat != e.Seat && seat != e.Target && e.Taken != 0 {
			e.Taken, e.Hidden = 0, true
		}
		return e
	}
	return e
}
