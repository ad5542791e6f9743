package bagpipes

import (
	"math/rand/v2"
)

// A bot picks a move for seat among the legal ones.
type bot func(s *state, seat int, legal []Move, r *rand.Rand) Move

func randomBot(_ *state, _ int, legal []Move, r *rand.Rand) Move { return legal[r.IntN(len(legal))] }

// greedyBot is a simple player that looks only at what its seat may know:
// it supports England when the crown pays clearly more than Scotland's
// reward and its daggers are not far ahead of the others' dagger-card
// counts, commits its castle to the camp when it supports Scotland (one
// unit otherwise), takes gold when it has enough units, and plays every
// card that helps it.
func greedyBot(s *state, seat int, legal []Move, r *rand.Rand) Move {
	p := &s.P[seat]
	wantEngland := s.greedyEngland(seat)
	find := func(ok func(m Move) bool) (Move, bool) {
		for _, m := range legal {
			if ok(m) {
				return m, true
			}
		}
		return Move{}, false
	}
	richest := func(ok func(int) bool) int {
		best, ties := -1, 0
		for i := range s.P {
			if i == seat || !ok(i) {
				continue
			}
			switch {
			case best < 0 || s.P[i].Gold > s.P[best].Gold:
				best, ties = i, 1
			case s.P[i].Gold == s.P[best].Gold:
				ties++
				if r.IntN(ties) == 0 {
					best = i
				}
			}
		}
		return best
	}
	// Cards first, where they help.
	if m, ok := find(func(m Move) bool { return m.Type == MovePlay && s.greedyLikes(seat, m, wantEngland) }); ok {
		return m
	}
	switch s.Phase {
	case phActions, phStayActs:
		if !s.Replenished || s.Phase == phStayActs {
			act := ActTaxes
			if p.Castle < 2 && s.Phase == phActions {
				act = ActTroops
				if p.Gold >= 4 {
					act = ActMercenaries
				}
			}
			if m, ok := find(func(m Move) bool { return m.Type == MoveReplenish && m.Action == act }); ok {
				return m
			}
		}
		want := 1
		if !wantEngland {
			want = s.greedyCommit(seat)
		}
		if p.Camp < want {
			if m, ok := find(func(m Move) bool { return m.Type == MoveRelocate && m.Units == min(p.Castle, want-p.Camp) }); ok {
				return m
			}
		}
		if m, ok := find(func(m Move) bool { return m.Type == MoveEndTurn }); ok {
			return m
		}
	case phBadge, phStayGive:
		target := richest(func(i int) bool {
			_, ok := find(func(m Move) bool { return m.To == i })
			return ok
		})
		if m, ok := find(func(m Move) bool { return m.To == target }); ok {
			return m
		}
	case phBadge2:
		if p.Side == sideScotland {
			return legal[0]
		}
		return legal[len(legal)-1]
	case phChoice:
		side := sideNames[sideScotland]
		if wantEngland {
			side = sideNames[sideEngland]
		}
		best, found := Move{}, false
		for _, m := range legal {
			if m.Side == side && (!found || m.Dagger > best.Dagger) {
				best, found = m, true
			}
		}
		if found {
			return best
		}
	}
	if m, ok := find(func(m Move) bool { return m.Type == MovePass }); ok {
		return m
	}
	return legal[r.IntN(len(legal))]
}

// greedyEngland tells whether the greedy bot at seat supports England: it
// compares the expected gold of each side, guessing that each other free
// player supports England with probability 0.35, from the public camps,
// and counts each dagger as a gold piece (two near Scotland's fall).
func (s *state) greedyEngland(seat int) bool {
	if s.bound(seat) || s.Army < 0 {
		return false
	}
	if s.P[seat].Side != sideNone {
		return s.P[seat].Side == sideEngland
	}
	const q = 0.35
	a := s.army()
	scot, eng, english := float64(s.ScotCamp), float64(a.Shield+s.EngBonus), 1.0
	mine := float64(s.P[seat].Camp)
	if s.Phase == phActions {
		mine += float64(s.P[seat].Castle)
	}
	for i := range s.P {
		c := float64(s.P[i].Camp)
		switch {
		case i == seat || !s.fights(i):
		case s.bound(i):
			scot += c
		default:
			scot += (1 - q) * c
			eng += q * c
			english += q
		}
	}
	share := float64(a.Crown)
	if !a.Generous {
		share /= english
	}
	daggerCost := 0.5
	if s.Defeats >= s.DefeatLimit-1 {
		daggerCost = 1.5
	}
	mineD, fewest := s.daggerTotal(seat), 100
	for i := range s.P {
		if i != seat {
			fewest = min(fewest, 2*(len(s.P[i].Daggers)+s.P[i].Virtual))
		}
	}
	if mineD >= fewest+3 {
		return false
	}
	scotEV := float64(a.EnglandWon) + 0.5
	if scot+mine >= eng {
		scotEV = float64(a.ScotlandWon) + 1
	}
	// Each bot has its own taste for English gold, fixed for the round, so
	// that identical bots do not all turn at once.
	taste := float64((seat*7+s.Round*13)%7-3) / 2
	return share-2*daggerCost+taste > scotEV
}

// greedyCommit is how many units the greedy bot wants in its camp when it
// supports Scotland: its share of what Scotland lacks against England's
// expected strength, plus one, within what it has.
func (s *state) greedyCommit(seat int) int {
	const q = 0.35
	a := s.army()
	scot, eng, scots := float64(s.ScotCamp), float64(a.Shield+s.EngBonus), 1.0
	for i := range s.P {
		if i == seat || !s.fights(i) {
			continue
		}
		c := float64(s.P[i].Camp)
		if s.bound(i) {
			scot += c
			scots++
			continue
		}
		scot += (1 - q) * c
		eng += q * c
		scots += 1 - q
	}
	want := int((eng-scot)/scots) + 1
	return max(1, min(want, s.P[seat].Castle+s.P[seat].Camp))
}

// greedyLikes tells whether the greedy bot wants to play m now.
func (s *state) greedyLikes(seat int, m Move, england bool) bool {
	c := &s.Set.Bagpipes[s.Set.bagByID[m.Card]]
	good := false
	for _, e := range c.Effects {
		switch e.Kind {
		case KindGold, KindCastleUnits, KindBagpipe:
			good = true
		case KindCampUnits, KindRelocate, KindMilitia, KindScotlandUnits:
			good = good || !england
		case KindWithdraw, KindEnglandUnits:
			good = good || england
		case KindDiscardDagger:
			good = good || len(s.P[seat].Daggers)+s.P[seat].Virtual > 0
		case KindLoseUnits, KindLoseGold:
			good = good || e.Who == WhoTarget
		case KindDagger, KindSwitch:
			return false
		}
	}
	if m.Units >= 0 {
		maxUnits, _ := s.cardParams(seat, s.Set.bagByID[m.Card])
		good = good && m.Units == maxUnits
	}
	return good
}
