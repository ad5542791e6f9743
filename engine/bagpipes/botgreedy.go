package bagpipes

import (
	"math"
	"math/rand/v2"
)

// The greedy player: the normal bot's heuristic and the strong bot's
// playout policy (bot.go), and the balance tests' player (bots_test.go).
// It reads only what its seat may know: public holdings, its own cards
// and side.

// greedyMove is the greedy bot's move; u is its draw for this round.
func greedyMove(s *state, seat int, legal []Move, r *rand.Rand, u float64) Move {
	p := &s.P[seat]
	wantEngland := s.greedyEngland(seat, u)
	find := func(ok func(m Move) bool) (Move, bool) {
		for _, m := range legal {
			if ok(m) {
				return m, true
			}
		}
		return Move{}, false
	}
	// best is the seat that may receive what legal gives (badge or
	// token) with the highest score, ties broken at random.
	best := func(score func(int) int) int {
		best, ties := -1, 0
		for i := range s.P {
			if _, ok := find(func(m Move) bool { return m.To == i }); i == seat || !ok {
				continue
			}
			switch {
			case best < 0 || score(i) > score(best):
				best, ties = i, 1
			case score(i) == score(best):
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
	case phBadge:
		target := best(func(i int) int { return s.P[i].Gold })
		if m, ok := find(func(m Move) bool { return m.To == target }); ok {
			return m
		}
	case phStayGive:
		target := best(func(i int) int {
			if wantEngland {
				return s.P[i].Camp
			}
			return -s.P[i].Camp
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

// The greedy bot's fixed guesses and tastes.
const (
	// greedyQ is the chance the greedy bot gives each other free player
	// of supporting England (their choices are secret).
	greedyQ = 0.35
	// greedyTemp is the spread, in gold, of the bot's choice: it supports
	// England with probability 1/(1+exp(-(EV England - EV Scotland)/T)),
	// so that identical bots do not all turn at once.
	greedyTemp = 1.0
	// greedyBagpipe and greedyUnit are what a bagpipe card and a castle
	// unit are worth in gold to the bot.
	greedyBagpipe, greedyUnit = 1.0, 0.5
	// greedyFallStake is what the bot risks, in gold, when a defeat this
	// round ends the game: it wins it if it then has the fewest daggers,
	// and loses it otherwise.
	greedyFallStake = 6.0
)

// greedyEngland tells whether the greedy bot at seat supports England
// this round (u is the bot's draw for the round, uniform in [0,1); the badge holder bound to
// Scotland never does). It weighs the gold each side is expected to bring
// it against the daggers the English side costs:
//   - Scotland's chance to win is a normal approximation of the battle:
//     the known strengths (Scotland's camp, the bound badge holder's camp,
//     the army's shield and bonus), its own camp (and castle during the
//     actions phase, which it would commit), and each other free camp on
//     England's side with probability greedyQ;
//   - supporting Scotland pays the intact or pierced beret (plus a
//     bagpipe card or a castle unit); supporting England pays the crown,
//     split among the expected English supporters unless generous;
//   - each expected dagger (2 a card) costs λ gold, λ rising from 0.3 to
//     1.2 with the defeats so far, since a fallen Scotland crowns the
//     player with the fewest daggers;
//   - when a defeat this round ends the game, the change it makes to
//     Scotland's chance of falling is weighed with greedyFallStake: a
//     gain if the bot would then hold the fewest daggers, a loss
//     otherwise;
//   - it never takes a dagger that would make it the traitor (five
//     daggers ahead of every other player).
func (s *state) greedyEngland(seat int, u float64) bool {
	if s.bound(seat) || s.Army < 0 {
		return false
	}
	if s.P[seat].Side != sideNone {
		return s.P[seat].Side == sideEngland
	}
	a := s.army()
	mu := float64(s.ScotCamp - s.shield() - s.EngBonus)
	variance, english := 1.0, 1.0
	maxOther, fewest := 0, 1<<30
	for i := range s.P {
		if i == seat {
			continue
		}
		d := s.publicDaggers(i)
		maxOther, fewest = max(maxOther, d), min(fewest, d)
		if !s.fights(i) {
			continue
		}
		c := float64(s.P[i].Camp)
		if s.bound(i) {
			mu += c
			continue
		}
		mu += (1 - 2*greedyQ) * c
		variance += 4 * greedyQ * (1 - greedyQ) * c * c
		if c > 0 {
			english += greedyQ
		}
	}
	p := &s.P[seat]
	mineS, mineE := float64(p.Camp), float64(max(p.Camp, 1))
	if s.Phase == phActions {
		mineS += float64(p.Castle)
	}
	sd := math.Sqrt(variance)
	pS := normalCDF((mu + mineS + 0.5) / sd) // Scotland wins if I support it
	pE := normalCDF((mu - mineE + 0.5) / sd) // Scotland wins if I support England
	scotEV := pS*(float64(a.ScotlandWon)+greedyBagpipe) + (1-pS)*(float64(a.EnglandWon)+greedyUnit)
	share := float64(a.Crown)
	if !a.Generous {
		share /= english
	}
	mine := s.daggerTotal(seat)
	if mine+2 >= maxOther+5 {
		return false
	}
	lambda := 0.3 + 0.9*float64(s.Defeats)/float64(s.DefeatLimit-1)
	engEV := share - 2*lambda
	if s.Defeats == s.DefeatLimit-1 {
		stake := -greedyFallStake
		if mine+2 < fewest {
			stake = greedyFallStake
		}
		engEV += (pS - pE) * stake
	}
	pEngland := 1 / (1 + math.Exp(-(engEV-scotEV)/greedyTemp))
	return u < pEngland
}

// publicDaggers is what everyone knows of seat's daggers: 2 per card.
func (s *state) publicDaggers(seat int) int {
	return 2 * (len(s.P[seat].Daggers) + s.P[seat].Virtual)
}

// normalCDF is the standard normal distribution function.
func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// greedyCommit is how many units the greedy bot wants in its camp when it
// supports Scotland: its share of what Scotland lacks against England's
// expected strength, plus one, within what it has.
func (s *state) greedyCommit(seat int) int {
	scot, eng, scots := float64(s.ScotCamp), float64(s.shield()+s.EngBonus), 1.0
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
		scot += (1 - greedyQ) * c
		eng += greedyQ * c
		scots += 1 - greedyQ
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
		_, maxUnits, _ := s.cardParams(seat, s.Set.bagByID[m.Card])
		good = good && m.Units == maxUnits
	}
	return good
}
