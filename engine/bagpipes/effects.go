package bagpipes

import "slices"

// playCard moves the played card (to the table for a first "x2" play, to
// the discards otherwise) and resolves its effects in order.
func (s *state) playCard(e CardPlayed, rec *[]Draw) {
	c := s.Set.bagByID[e.Card]
	p := &s.P[e.Seat]
	if k := slices.Index(p.Table, c); k >= 0 {
		p.Table = slices.Delete(p.Table, k, k+1)
		p.TableRound = slices.Delete(p.TableRound, k, k+1)
		s.BagOut = append(s.BagOut, c)
	} else {
		k := slices.Index(p.Hand, c)
		p.Hand = slices.Delete(p.Hand, k, k+1)
		if s.Set.Bagpipes[c].X2 {
			p.Table = append(p.Table, c)
			p.TableRound = append(p.TableRound, s.Round)
		} else {
			s.BagOut = append(s.BagOut, c)
		}
	}
	for _, eff := range s.Set.Bagpipes[c].Effects {
		s.effect(eff, e.Seat, e.Units, e.Target, rec)
	}
}

// holds tells whether effect condition cond holds for the player src.
func (s *state) holds(cond string, src int) bool {
	switch cond {
	case "":
		return true
	case IfScotlandWon:
		return s.Won == sideScotland
	case IfEnglandWon:
		return s.Won == sideEngland
	case IfSupportedScotland:
		return src >= 0 && s.P[src].Side == sideScotland
	case IfSupportedEngland:
		return src >= 0 && s.P[src].Side == sideEngland
	case IfBadge:
		return src == s.Badge
	}
	return false
}

// whom lists the seats an effect applies to. src is -1 for an army card.
func (s *state) whom(who string, src, target int) []int {
	var out []int
	switch who {
	case "", WhoSelf:
		if src >= 0 {
			out = append(out, src)
		}
	case WhoTarget:
		if target >= 0 {
			out = append(out, target)
		}
	case WhoBadge:
		if s.fights(s.Badge) {
			out = append(out, s.Badge)
		}
	default:
		for i := range s.P {
			if !s.fights(i) {
				continue
			}
			switch who {
			case WhoOthers:
				if i == src {
					continue
				}
			case WhoScots, WhoEnglish:
				side := sideScotland
				if who == WhoEnglish {
					side = sideEngland
				}
				if s.P[i].Side != side || s.P[i].Deserter {
					continue
				}
			}
			out = append(out, i)
		}
	}
	return out
}

// effect resolves one effect of a card played by src (-1: the army card)
// with the player's chosen units (-1: none) and target (-1: none).
func (s *state) effect(e Effect, src, units, target int, rec *[]Draw) {
	if !s.holds(e.If, src) {
		return
	}
	switch e.Kind {
	case KindMilitia:
		for range e.Amount {
			s.militia()
		}
		return
	case KindScotlandUnits:
		s.ScotCamp += e.Amount
		return
	case KindEnglandUnits:
		s.EngBonus += e.Amount
		return
	}
	n := e.Amount
	if isVariable(e) && units >= 0 {
		n = min(n, units)
	}
	for _, seat := range s.whom(e.Who, src, target) {
		p := &s.P[seat]
		switch e.Kind {
		case KindGold:
			p.Gold += n
		case KindLoseGold:
			p.Gold -= min(n, p.Gold)
		case KindCastleUnits:
			p.Castle += n
		case KindCampUnits:
			p.Camp += n
		case KindRelocate:
			m := min(n, p.Castle)
			p.Castle -= m
			p.Camp += m
		case KindWithdraw:
			m := min(n, p.Camp)
			p.Camp -= m
			p.Castle += m
		case KindLoseUnits:
			p.Camp -= min(n, p.Camp)
		case KindBagpipe:
			s.giveBagpipes(seat, n, s.Phase == phAwardCards, rec)
		case KindDagger:
			s.giveDaggers(seat, n, rec)
		case KindDiscardDagger:
			s.discardDaggers(seat, n, rec)
		case KindSwitch:
			if p.Side == sideScotland {
				p.Side = sideEngland
			} else if p.Side == sideEngland {
				p.Side = sideScotland
			}
		}
	}
}
