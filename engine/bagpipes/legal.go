package bagpipes

import (
	"strconv"

	"pbem/engine"
)

var replenishLabels = map[string]string{
	ActTaxes:       "Collect taxes (+1 gold)",
	ActMilitia:     "Raise militia (+1 unit in every camp and in Scotland's camp)",
	ActTroops:      "Assemble troops (+2 units in your castle)",
	ActMercenaries: "Hire mercenaries (pay 1 gold, +4 units in your castle)",
}

// relocateLabels holds the common relocation labels; never modified.
var relocateLabels = func() (l [32]string) {
	for u := range l {
		l[u] = "Move " + strconv.Itoa(u) + " units from your castle to your camp"
	}
	l[1] = "Move 1 unit from your castle to your camp"
	return l
}()

func relocateLabel(u int) string {
	if u < len(relocateLabels) {
		return relocateLabels[u]
	}
	return "Move " + strconv.Itoa(u) + " units from your castle to your camp"
}

func seatLabel(seat int) string { return "seat " + strconv.Itoa(seat) }

// Legal lists the moves seat may make now, each with an English label.
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
	add := func(m Move) { out = append(out, m) }
	replenish := func() {
		for _, a := range replenishActions {
			if a == ActMercenaries && p.Gold < 1 {
				continue
			}
			m := noMove()
			m.Type, m.Action, m.Text = MoveReplenish, a, replenishLabels[a]
			add(m)
		}
	}
	switch s.Phase {
	case phActions:
		if !s.Replenished {
			replenish()
		}
		for u := p.Castle; u >= 1; u-- {
			m := noMove()
			m.Type, m.Units, m.Text = MoveRelocate, u, relocateLabel(u)
			add(m)
		}
		out = s.addPlays(seat, out)
		if s.Replenished {
			m := noMove()
			m.Type, m.Text = MoveEndTurn, "End your turn"
			add(m)
		}
	case phStayActs:
		replenish()
		for i := range out {
			out[i].Text = "Stay home: " + out[i].Text + " (" + strconv.Itoa(4-s.StayLeft) + " of 3)"
		}
	case phBefore, phAwardCards:
		out = s.addPlays(seat, out)
		m := noMove()
		m.Type, m.Text = MovePass, "Play no more bagpipe cards in this phase"
		add(m)
	case phBadge, phBadge2:
		for _, to := range s.badgeReceivers() {
			m := noMove()
			m.Type, m.To, m.Text = MovePassBadge, to, "Give the badge of honour to "+seatLabel(to)
			add(m)
		}
		if s.Phase == phBadge2 {
			m := noMove()
			m.Type, m.Text = MoveKeepBadge, "Keep the badge of honour"
			add(m)
		}
	case phStayGive:
		for _, to := range s.stayReceivers() {
			m := noMove()
			m.Type, m.To, m.Text = MoveStayHome, to, "Give the Stay Home! token to "+seatLabel(to)
			add(m)
		}
	case phChoice:
		sides := []string{sideNames[sideScotland], sideNames[sideEngland]}
		labels := []string{"Support Scotland", "Support England"}
		for k, side := range sides {
			if s.N != 2 || len(p.DagHand) == 0 {
				m := noMove()
				m.Type, m.Side, m.Text = MoveChoose, side, labels[k]
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
				m := noMove()
				m.Type, m.Side, m.Dagger = MoveChoose, side, v
				m.Text = labels[k] + " and offer a dagger card with " + strconv.Itoa(v) + " dagger(s)"
				add(m)
			}
		}
	}
	return out
}

// addPlays appends every way seat may play each playable card.
func (s *state) addPlays(seat int, out []Move) []Move {
	for _, c := range s.playable(seat) {
		card := &s.Set.Bagpipes[c]
		maxUnits, target := s.cardParams(seat, c)
		base := "Play " + card.Name
		tg := []int{-1}
		if target {
			tg = s.targets(seat)
		}
		for _, t := range tg {
			for u := maxUnits; u >= -1; u-- {
				if u == -1 && maxUnits >= 0 {
					break
				}
				m := noMove()
				m.Type, m.Card, m.Units, m.Target = MovePlay, card.ID, u, t
				m.Text = base
				if t >= 0 {
					m.Text += " on " + seatLabel(t)
				}
				if u >= 0 {
					m.Text += " with " + strconv.Itoa(u) + " unit(s)"
				}
				m.Text += ": " + s.Set.texts[c]
				out = append(out, m)
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
