package bagpipes

import "pbem/engine"

// Legal lists the moves seat may make now, each labelled in the game's
// language (on demand, see Move.Label).
func (s *state) Legal(seat int) []engine.Move {
	ms := s.legal(seat)
	out := make([]engine.Move, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

// legal lists seat's moves as typed moves.
func (s *state) legal(seat int) []Move {
	if s.Res != nil || !s.awaits(seat) {
		return nil
	}
	p := &s.P[seat]
	out := make([]Move, 0, 8+p.Castle+2*len(p.Hand))
	lab := s.labels()
	mv := func(typ string) Move { return Move{Type: typ, Units: -1, To: -1, Target: -1, lab: lab} }
	add := func(m Move) { out = append(out, m) }
	replenish := func() {
		for _, a := range replenishActions {
			if a == ActMercenaries && p.Gold < 1 {
				continue
			}
			m := mv(MoveReplenish)
			m.Action = a
			add(m)
		}
	}
	switch s.Phase {
	case phActions:
		if !s.Replenished {
			replenish()
		}
		for u := p.Castle; u >= 1; u-- {
			m := mv(MoveRelocate)
			m.Units = u
			add(m)
		}
		out = s.addPlays(seat, out, lab)
		if s.Replenished {
			add(mv(MoveEndTurn))
		}
	case phStayActs:
		replenish()
		for i := range out {
			out[i].step = 4 - s.StayLeft
		}
	case phBefore, phAwardCards:
		out = s.addPlays(seat, out, lab)
		add(mv(MovePass))
	case phBadge, phBadge2:
		for _, to := range s.badgeReceivers() {
			m := mv(MovePassBadge)
			m.To = to
			add(m)
		}
		if s.Phase == phBadge2 {
			add(mv(MoveKeepBadge))
		}
	case phStayGive:
		for _, to := range s.stayReceivers() {
			m := mv(MoveStayHome)
			m.To = to
			add(m)
		}
	case phChoice:
		for _, side := range [...]string{sideNames[sideScotland], sideNames[sideEngland]} {
			if s.N != 2 || len(p.DagHand) == 0 {
				m := mv(MoveChoose)
				m.Side = side
				add(m)
				continue
			}
			seen := [4]bool{}
			for _, d := range p.DagHand {
				v := s.Set.Daggers[d].Daggers
				if seen[v] {
					continue
				}
				seen[v] = true
				m := mv(MoveChoose)
				m.Side, m.Dagger = side, v
				add(m)
			}
		}
	}
	return out
}

// addPlays appends every way seat may play each playable card.
func (s *state) addPlays(seat int, out []Move, lab *labeling) []Move {
	for _, c := range s.playable(seat) {
		minUnits, maxUnits, target := s.cardParams(seat, c)
		units := []int{-1} // no units asked
		if maxUnits >= 0 {
			units = nil // from the most down to the fewest that do something (none: not playable now)
			for u := maxUnits; u >= minUnits; u-- {
				units = append(units, u)
			}
		}
		tg := []int{-1}
		if target {
			tg = s.targets(seat)
		}
		for _, t := range tg {
			for _, u := range units {
				out = append(out, Move{Type: MovePlay, Card: s.Set.Bagpipes[c].ID, Units: u, To: -1, Target: t, lab: lab})
			}
		}
	}
	return out
}

// DefaultMove is the harmless move played on a timeout: collect taxes,
// end the turn, support Scotland (offering the smallest dagger card), pass
// the badge or the token to the next eligible seat, keep the badge, play
// no cards.
func (s *state) DefaultMove(seat int) engine.Move {
	ms := s.legal(seat)
	if len(ms) == 0 {
		return nil
	}
	switch s.Phase {
	case phActions:
		for _, m := range ms {
			if (!s.Replenished && m.Type == MoveReplenish && m.Action == ActTaxes) || (s.Replenished && m.Type == MoveEndTurn) {
				return m
			}
		}
	case phChoice:
		best := ms[0]
		for _, m := range ms {
			if m.Side == sideNames[sideScotland] && (best.Side != m.Side || m.Dagger < best.Dagger) {
				best = m
			}
		}
		return best
	case phStayActs:
		return ms[0] // taxes
	case phBadge, phStayGive:
		best := ms[0]
		for _, m := range ms {
			if (m.To-seat+s.N)%s.N < (best.To-seat+s.N)%s.N {
				best = m
			}
		}
		return best
	}
	return ms[len(ms)-1] // taxes, keep the badge, pass
}
