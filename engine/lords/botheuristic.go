package lords

import "math/rand/v2"

// The normal bot's heuristic: each legal move is scored by what it does at
// once, from the mover's own cards and the table only (never the other
// hands, though it runs on a sampled world), and the best is played.

// powerWorth is what activating each clan's power is worth, in strength
// points, to the heuristic when the power has no target to weigh.
var powerWorth = [clanCount]float64{
	Makgill: 4, Forsyth: 4, Cochrane: 5, Bruce: 3, MacDonnell: 2,
	Fergusson: 3, Wemyss: 3, Cockburn: 2, Scott: 3,
}

// hiddenStrength is the strength the heuristic assumes for a card it
// cannot see (the deck's average).
const hiddenStrength = 6.5

// bestMove is the index in legal (seat's legal moves) of the best move by
// the heuristic; ties are broken at random.
func (s *State) bestMove(seat int, legal []Move, r *rand.Rand) int {
	best, bestV, ties := 0, 0.0, 0
	for i := range legal {
		v := s.moveWorth(seat, &legal[i])
		switch {
		case i == 0 || v > bestV+1e-9:
			best, bestV, ties = i, v, 1
		case v > bestV-1e-9:
			ties++
			if r.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return best
}

// moveWorth scores one move of seat.
func (s *State) moveWorth(seat int, m *Move) float64 {
	p := s.Pending
	switch m.Type {
	case MoveClaim:
		return float64(s.d.strength(m.Card)) + float64(m.Card)/1000
	case MoveRecruit:
		rc := s.Recruits[m.Slot]
		extra := -1
		if rc.FaceUp {
			extra = rc.Card
		}
		return s.potential(seat, -1, extra, s.actionsLeft(false))
	case MoveMuster:
		v := s.potential(seat, m.Card, 0, s.actionsLeft(p != nil))
		if m.FaceUp {
			if s.canActivate(m.Card) && s.useful(seat, m.Card, s.d.clan(m.Card), len(s.Hands[seat])-1) {
				v += s.activationWorth(seat, m.Card, s.d.clan(m.Card))
			} else {
				v -= 0.5 // shows the card for nothing
			}
		}
		return v
	case MovePower:
		if !m.Use {
			return 0
		}
		return powerWorth[p.Power]
	case MoveCopy:
		c := s.Armies[m.Seat][m.Index].Card
		return s.activationWorth(seat, p.Card, s.d.clan(c))
	case MoveTarget:
		return s.targetWorth(seat, p.Card, p.Power, m)
	}
	return 0
}

// actionsLeft is how many more cards seat may muster this round after the
// move being weighed (a Makgill muster takes no turn).
func (s *State) actionsLeft(extra bool) int {
	left := 5 - s.Turn
	if extra {
		left++
	}
	return max(left, 0)
}

// activationWorth is what using power p on seat's card is worth: the best
// target's worth for a targeted power, else its fixed worth.
func (s *State) activationWorth(seat, card int, p Clan) float64 {
	if !p.targeted() {
		return powerWorth[p]
	}
	best := 0.0
	for _, t := range s.targetMoves(seat, card, p, nil) {
		best = max(best, s.targetWorth(seat, card, p, &t))
	}
	return best
}

// targetWorth is the gain of a targeted power's target for seat: a
// stronger follower for ours (Fergusson), the strongest rival follower
// gone (Wemyss), a stronger supporter in our army (Cockburn).
func (s *State) targetWorth(seat, card int, p Clan, m *Move) float64 {
	mine := float64(s.d.strength(card))
	switch p {
	case Cockburn:
		return float64(s.d.strength(m.Card)) - mine
	case Fergusson, Wemyss:
		f := s.Armies[m.Seat][m.Index]
		str := hiddenStrength
		if f.FaceUp || f.knownBy(seat) {
			str = float64(s.d.strength(f.Card))
		}
		if p == Fergusson {
			return str - mine
		}
		if m.Seat == seat {
			return -str
		}
		return str
	}
	return 0
}

// potential is the best army total seat can reach this round with `left`
// more musters from its hand, once the move weighed is made: muster moves
// that card from the hand into the army (0: none), extra joins the hand
// (-1: an unseen card, worth hiddenStrength). The cards kept in hand count
// a little, for the rounds to come.
func (s *State) potential(seat, muster, extra, left int) float64 {
	var army, hand []int
	for _, f := range s.Armies[seat] {
		army = append(army, f.Card)
	}
	for _, c := range s.Hands[seat] {
		if c == muster {
			army = append(army, c)
			continue
		}
		hand = append(hand, c)
	}
	unseen := extra == -1
	if extra > 0 {
		hand = append(hand, extra)
	}
	// Mixed army: the strongest cards.
	strs := make([]float64, 0, len(hand)+1)
	for _, c := range hand {
		strs = append(strs, float64(s.d.strength(c)))
	}
	if unseen {
		strs = append(strs, hiddenStrength)
	}
	sortDesc(strs)
	base := 0.0
	for _, c := range army {
		base += float64(s.d.strength(c))
	}
	best := base
	for i := 0; i < left && i < len(strs); i++ {
		best += strs[i]
	}
	// One clan, doubled.
	armyClan, oneClan := noClan, true
	for _, c := range army {
		cl := s.d.clan(c)
		if armyClan == noClan {
			armyClan = cl
		} else if cl != armyClan {
			oneClan = false
		}
	}
	if oneClan {
		for cl := Scott; int(cl) < clanCount; cl++ {
			if armyClan != noClan && cl != armyClan {
				continue
			}
			var cs []float64
			for _, c := range hand {
				if s.d.clan(c) == cl {
					cs = append(cs, float64(s.d.strength(c)))
				}
			}
			sortDesc(cs)
			total, n := base, len(army)
			for i := 0; i < left && i < len(cs); i++ {
				total += cs[i]
				n++
			}
			if n >= 2 {
				best = max(best, 2*total)
			}
		}
	}
	kept := 0.0
	for _, v := range strs {
		kept += v
	}
	return best + 0.1*kept
}

func sortDesc(a []float64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] > a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
