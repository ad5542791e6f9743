package lords

import "sort"

// TargetPoints is the supporter strength that ends the game.
const TargetPoints = 40

// scoreRound reveals and ranks the armies (ruling 14): strength summed,
// doubled for two or more cards all of one clan (an activated Bruce, or a
// Scott that copied Bruce, counts as any clan: ruling 11), ties broken by
// the army's highest-ranked card. Seats without followers come last and
// claim nothing. Claims is 2 with an active Cochrane power (ruling 12).
func (s *State) scoreRound() []ArmyScore {
	out := make([]ArmyScore, s.N)
	for seat, army := range s.Armies {
		a := ArmyScore{Seat: seat, Cards: make([]int, 0, len(army))}
		clan, mixed := noClan, false
		for _, f := range army {
			a.Cards = append(a.Cards, f.Card)
			a.Total += s.d.strength(f.Card)
			a.Best = max(a.Best, f.Card)
			p := endOfRoundPower(f)
			if p == Cochrane {
				a.Claims = 2
			}
			if p == Bruce {
				continue // any clan
			}
			c := s.d.clan(f.Card)
			if clan == noClan {
				clan = c
			} else if c != clan {
				mixed = true
			}
		}
		if len(army) >= 2 && !mixed {
			a.Doubled = true
			a.Total *= 2
		}
		if len(army) > 0 && a.Claims == 0 {
			a.Claims = 1
		}
		out[seat] = a
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (len(a.Cards) > 0) != (len(b.Cards) > 0) {
			return len(a.Cards) > 0
		}
		if a.Total != b.Total {
			return a.Total > b.Total
		}
		return a.Best > b.Best
	})
	armies := 0
	for i := range out {
		if len(out[i].Cards) > 0 {
			armies++
			out[i].Place = armies
		} else {
			out[i].Place = armies + 1 // seats without followers share the last place
		}
	}
	return out
}

// points is the supporter strength a seat has claimed.
func (s *State) points(seat int) int {
	p := 0
	for _, c := range s.Claimed[seat] {
		p += s.d.strength(c)
	}
	return p
}

// finalRanking ranks the seats at the end (ruling 16): most supporter
// strength first; a tie goes to the better place in the final round.
func (s *State) finalRanking() []Place {
	out := make([]Place, s.N)
	for seat := range s.N {
		out[seat] = Place{Seat: seat, Points: s.points(seat), RoundPlace: s.N}
	}
	for _, o := range s.Order {
		out[o.Seat].RoundPlace = o.Place
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Points != out[j].Points {
			return out[i].Points > out[j].Points
		}
		return out[i].RoundPlace < out[j].RoundPlace
	})
	for i := range out {
		if i > 0 && out[i].Points == out[i-1].Points && out[i].RoundPlace == out[i-1].RoundPlace {
			out[i].Place = out[i-1].Place
		} else {
			out[i].Place = i + 1
		}
	}
	return out
}

// gameOver reports whether someone has reached the target.
func (s *State) gameOver() bool {
	for seat := range s.N {
		if s.points(seat) >= TargetPoints {
			return true
		}
	}
	return false
}
