package lords

import "pbem/engine"

// Forced implements engine.State: seat's only legal move, when it has
// one. In Lords of Scotland a single legal move is always one that every
// seat can count from the table: a claim of the last supporter left (the
// supporters are face up), the one target of a power (the supporters and
// the armies' cards are on the table, face up or down), and the recruit
// of the one card left to recruit by a seat with an empty hand (hand
// sizes are shown to all). A seat with cards in hand always has at
// least two musters (face up or face down), and a power's "use it?"
// always has two answers, so no count of hidden cards ever makes a
// step forced.
func (s *State) Forced(seat int) engine.Move {
	ms := s.legal(seat)
	if len(ms) != 1 || !s.forcedInPublic(seat) {
		return nil
	}
	return &ms[0]
}

// forcedInPublic reports whether seat's step is one whose count of moves
// the table sees (see Forced): the claim phase, a power's target, and a
// turn of a seat with no card in hand.
func (s *State) forcedInPublic(seat int) bool {
	switch {
	case s.Phase == PhaseClaim:
		return true
	case s.Pending == nil:
		return len(s.Hands[seat]) == 0
	}
	return s.Pending.Kind == "target"
}
