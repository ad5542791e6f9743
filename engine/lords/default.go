package lords

import "pbem/engine"

// DefaultMove is the move played for seat when its deadline passes: recruit
// the strongest face-up recruit (else a face-down one), or if that is not
// possible muster the weakest card face-down; decline every power (a copied
// power, chosen already, takes its first target); claim the strongest
// supporter. Nil when nothing is awaited from seat.
func (s *State) DefaultMove(seat int) engine.Move {
	legal := s.legal(seat)
	if len(legal) == 0 {
		return nil
	}
	best := -1
	score := func(m *Move) int {
		switch m.Type {
		case MoveRecruit:
			if m.show != 0 {
				return 3000 + 100*s.d.strength(m.show) + m.show%100
			}
			return 2000 - m.Slot
		case MoveMuster:
			if m.FaceUp {
				return -1
			}
			return 1000 - 10*s.d.strength(m.Card) - m.Card%10
		case MovePower:
			if !m.Use {
				return 5000
			}
		case MoveClaim:
			return 100*s.d.strength(m.Card) + m.Card%100
		}
		return 0
	}
	for i := range legal {
		if best < 0 || score(&legal[i]) > score(&legal[best]) {
			best = i
		}
	}
	m := legal[best]
	return &m
}
