package bagpipes

import "pbem/engine"

// Redact returns the version of e that seat may see: another seat's
// choice and offered dagger card, and the identity of cards drawn or
// discarded by another seat, are blanked.
func (Game) Redact(e engine.Event, seat int) engine.Event {
	switch e := e.(type) {
	case ChoiceMade:
		if e.Seat != seat {
			return ChoiceMade{Seat: e.Seat}
		}
	case CardPlayed:
		e.Draws = redactDraws(e.Draws, seat)
		return e
	case Awards:
		e.Draws = redactDraws(e.Draws, seat)
		e.Gold = append([]int(nil), e.Gold...)
		e.Units = append([]int(nil), e.Units...)
		return e
	}
	return e
}

func redactDraws(ds []Draw, seat int) []Draw {
	if ds == nil {
		return nil
	}
	out := make([]Draw, len(ds))
	for i, d := range ds {
		if d.Seat != seat {
			d.Card, d.Daggers, d.Virtual = "", 0, false
		}
		out[i] = d
	}
	return out
}
