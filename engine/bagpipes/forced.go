package bagpipes

import "pbem/engine"

// Forced implements engine.State: seat's only legal move, when every
// seat can tell from the table that it is the only one. That is:
//
//   - passing the badge or the stay-home token when one seat only may
//     receive it (who had them is public), or keeping the badge in the
//     2-player game when passing it back is not allowed;
//   - passing in the card phases (before the battle, awarding cards), or
//     ending the turn once replenished with no unit left in the castle,
//     by a seat with no card in hand and no card of that phase on its
//     table (hand sizes and tables are shown to all).
//
// A seat that holds cards none of which it may play now also has only
// one move, but the others cannot know it: playing it at once would
// tell them by the timing, so that step is asked as usual.
func (s *state) Forced(seat int) engine.Move {
	ms := s.legal(seat)
	if len(ms) != 1 || !s.forcedInPublic(seat) {
		return nil
	}
	return ms[0]
}

// forcedInPublic reports whether seat's step has a count of moves the
// table sees (see Forced).
func (s *state) forcedInPublic(seat int) bool {
	switch s.Phase {
	case phBadge, phBadge2, phStayGive:
		return true
	case phBefore, phAwardCards:
		return s.noCardsInPublic(seat)
	case phActions:
		return s.Replenished && s.P[seat].Castle == 0 && s.noCardsInPublic(seat)
	}
	return false
}

// noCardsInPublic reports whether seat has no card it could play in this
// phase as far as the table sees: an empty hand, and no card of the
// phase on its table that it has not played this round.
func (s *state) noCardsInPublic(seat int) bool {
	p := &s.P[seat]
	if len(p.Hand) > 0 {
		return false
	}
	ph := s.cardPhase()
	for k, c := range p.Table {
		if p.TableRound[k] < s.Round && s.Set.Bagpipes[c].Phase == ph {
			return false
		}
	}
	return true
}
