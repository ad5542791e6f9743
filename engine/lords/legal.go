package lords

import "pbem/engine"

// Legal lists the moves seat may make now.
func (s *State) Legal(seat int) []engine.Move {
	ms := s.legal(seat)
	out := make([]engine.Move, len(ms))
	for i := range ms {
		out[i] = &ms[i]
	}
	return out
}

// legal lists seat's moves as values (nil when nothing is awaited from it).
func (s *State) legal(seat int) []Move {
	if seat < 0 || seat != s.awaited() {
		return nil
	}
	if s.Phase == PhaseClaim {
		out := make([]Move, 0, len(s.Supporters))
		for _, c := range s.Supporters {
			out = append(out, Move{Type: MoveClaim, Card: c, lab: s.labels()})
		}
		return out
	}
	p := s.Pending
	if p == nil {
		return s.turnMoves(seat)
	}
	switch p.Kind {
	case "muster":
		return s.musterMoves(seat, nil)
	case "target":
		return s.targetMoves(seat, p.Card, p.Power, nil)
	}
	// "activate"
	lab := s.labels()
	no := Move{Type: MovePower, Use: false, power: p.Power, show: p.Card, lab: lab}
	switch {
	case p.Power == Scott:
		var out []Move
		for _, t := range s.copyTargets(seat, p.Card, len(s.Hands[seat])) {
			c := s.Armies[t.seat][t.index].Card
			out = append(out, Move{Type: MoveCopy, Seat: t.seat, Index: t.index, show: c, power: s.d.clan(c), lab: lab})
		}
		return append(out, no)
	case p.Power.targeted():
		return append(s.targetMoves(seat, p.Card, p.Power, nil), no)
	}
	return []Move{{Type: MovePower, Use: true, power: p.Power, show: p.Card, lab: lab}, no}
}

// canAct reports whether seat can recruit or muster (ruling 2).
func (s *State) canAct(seat int) bool {
	return len(s.Hands[seat]) > 0 || s.canRecruit(seat)
}

func (s *State) canRecruit(seat int) bool {
	if len(s.Hands[seat]) >= HandLimit {
		return false
	}
	for _, r := range s.Recruits {
		if r.Card != 0 {
			return true
		}
	}
	return false
}

// HandLimit is the hand size from which recruiting is not allowed.
const HandLimit = 10

func (s *State) turnMoves(seat int) []Move {
	out := make([]Move, 0, 5+2*len(s.Hands[seat]))
	if len(s.Hands[seat]) < HandLimit {
		for i, r := range s.Recruits {
			if r.Card == 0 {
				continue
			}
			m := Move{Type: MoveRecruit, Slot: i, lab: s.labels()}
			if r.FaceUp {
				m.show = r.Card
			}
			out = append(out, m)
		}
	}
	return s.musterMoves(seat, out)
}

func (s *State) musterMoves(seat int, out []Move) []Move {
	for _, c := range s.Hands[seat] {
		out = append(out,
			Move{Type: MoveMuster, Card: c, FaceUp: true, lab: s.labels()},
			Move{Type: MoveMuster, Card: c, FaceUp: false, lab: s.labels()})
	}
	return out
}

// targetMoves lists the targets of power p used by seat's card.
func (s *State) targetMoves(seat, card int, p Clan, out []Move) []Move {
	switch p {
	case Cockburn:
		for _, c := range s.Supporters {
			out = append(out, Move{Type: MoveTarget, Card: c, power: p, lab: s.labels()})
		}
	case Fergusson, Wemyss:
		for q, army := range s.Armies {
			if p == Fergusson && q == seat {
				continue
			}
			for i, f := range army {
				if f.Card == card {
					continue
				}
				m := Move{Type: MoveTarget, Seat: q, Index: i, power: p, lab: s.labels()}
				if f.FaceUp || f.knownBy(seat) {
					m.show = f.Card
				}
				out = append(out, m)
			}
		}
	}
	return out
}
