package lords

import (
	"slices"
	"strconv"

	"pbem/engine"
)

// Apply changes the state by one event. It never fails: events come from
// Decide. An event of another game is ignored.
func (s *State) Apply(e engine.Event) {
	switch e := e.(type) {
	case TurnStarted:
		s.FlipDue = false
		if e.Slot >= 0 && e.Slot < len(s.Recruits) {
			s.Recruits[e.Slot].FaceUp = true
		}
	case Recruited:
		r := s.Recruits[e.Slot]
		s.Hands[e.Seat] = append(s.Hands[e.Seat], r.Card)
		c, _ := s.draw()
		s.Recruits[e.Slot] = Recruit{Card: c, FaceUp: r.FaceUp && c != 0}
		s.nextTurn()
	case Mustered:
		s.Hands[e.Seat] = remove(s.Hands[e.Seat], e.Card)
		s.Armies[e.Seat] = append(s.Armies[e.Seat], Follower{Card: e.Card, FaceUp: e.FaceUp, Known: 1 << uint(e.Seat)})
		if e.Activate {
			s.Pending = &Pending{Kind: "activate", Seat: e.Seat, Card: e.Card, Power: s.d.clan(e.Card)}
		} else {
			s.nextTurn()
		}
	case Passed, PowerDeclined:
		s.nextTurn()
	case PowerUsed:
		switch e.Power {
		case Forsyth:
			if c, _ := s.draw(); c != 0 {
				s.Hands[e.Seat] = append(s.Hands[e.Seat], c)
			}
			s.nextTurn()
		case Makgill:
			s.Pending = &Pending{Kind: "muster", Seat: e.Seat, Card: e.Card, Power: Makgill}
		default:
			if q, i := s.findFollower(e.Card); q >= 0 {
				s.Armies[q][i].Power = e.Power
			}
			s.nextTurn()
		}
	case Copied:
		s.Pending = nil
		if e.Power.targeted() {
			s.Pending = &Pending{Kind: "target", Seat: e.Seat, Card: e.Card, Power: e.Power}
		}
	case Swapped:
		_, i := s.findFollower(e.Card)
		taken := s.Armies[e.Target][e.Index]
		taken.Known |= 1 << uint(e.Seat)
		s.Armies[e.Target][e.Index] = Follower{Card: e.Card, FaceUp: true}
		s.Armies[e.Seat][i] = taken
		s.nextTurn()
	case Discarded:
		s.Armies[e.Target] = slices.Delete(s.Armies[e.Target], e.Index, e.Index+1)
		s.Discard = append(s.Discard, e.Discarded)
		s.nextTurn()
	case SupporterSwapped:
		q, i := s.findFollower(e.Card)
		s.Armies[q][i] = Follower{Card: e.Supporter, FaceUp: true}
		s.Supporters[slices.Index(s.Supporters, e.Supporter)] = e.Card
		s.nextTurn()
	case RoundScored:
		for q := range s.Armies {
			for i := range s.Armies[q] {
				s.Armies[q][i].FaceUp = true
			}
		}
		s.Order = e.Armies
		s.Phase = PhaseClaim
		s.Claimant = 0
		s.ClaimsLeft = 0
		if len(e.Armies) > 0 {
			s.ClaimsLeft = e.Armies[0].Claims
		}
	case Claimed:
		s.Supporters = remove(s.Supporters, e.Card)
		s.Claimed[e.Seat] = append(s.Claimed[e.Seat], e.Card)
		s.ClaimsLeft--
		if s.ClaimsLeft <= 0 {
			s.Claimant++
			if s.Claimant < len(s.Order) {
				s.ClaimsLeft = s.Order[s.Claimant].Claims
			}
		}
	case RoundEnded:
		s.endRound(e)
	case RoundStarted:
		s.dealRound()
		s.Round++
		s.Phase = PhasePlay
		s.Turn, s.Step = 1, 0
		s.FlipDue = true
		s.Claimant, s.ClaimsLeft = 0, 0
	case GameEnded:
		s.Phase = PhaseOver
		s.Pending = nil
		s.Final = s.result(e)
	}
}

// nextTurn ends the current seat's turn.
func (s *State) nextTurn() {
	s.Pending = nil
	s.Step++
	if s.Step == s.N {
		s.Step = 0
		s.Turn++
		if s.Turn <= 5 {
			s.FlipDue = true
		}
	}
}

// endRound discards supporters, recruits and followers, keeps activated
// MacDonnells one more round (ruling 13) and passes the initiative.
func (s *State) endRound(e RoundEnded) {
	s.Discard = append(s.Discard, s.Supporters...)
	s.Supporters = s.Supporters[:0]
	for i, r := range s.Recruits {
		if r.Card != 0 {
			s.Discard = append(s.Discard, r.Card)
		}
		s.Recruits[i] = Recruit{}
	}
	for q, army := range s.Armies {
		kept := army[:0]
		for _, f := range army {
			if endOfRoundPower(f) == MacDonnell {
				f.Kept = true
				kept = append(kept, f)
			} else {
				s.Discard = append(s.Discard, f.Card)
			}
		}
		s.Armies[q] = kept
	}
	s.Initiative = e.Initiative
	s.Phase = PhaseBetween
	s.Pending = nil
	s.Claimant, s.ClaimsLeft = 0, 0
}

func (s *State) result(e GameEnded) *engine.Result {
	r := &engine.Result{}
	for _, p := range e.Ranking {
		r.Ranking = append(r.Ranking, engine.Standing{
			Seat: p.Seat, Place: p.Place, Score: p.Points,
			Detail: map[string]int{"final_round_place": p.RoundPlace},
		})
	}
	if len(e.Ranking) > 0 {
		w := e.Ranking[0]
		r.Summary = s.labels().summary(e.Ranking, w)
	}
	return r
}

// findFollower returns the army and position of card, or -1, -1.
func (s *State) findFollower(card int) (seat, index int) {
	for q, army := range s.Armies {
		for i, f := range army {
			if f.Card == card {
				return q, i
			}
		}
	}
	return -1, -1
}

// remove deletes the first occurrence of card from cards, keeping order.
func remove(cards []int, card int) []int {
	if i := slices.Index(cards, card); i >= 0 {
		return slices.Delete(cards, i, i+1)
	}
	return cards
}

// Standings implements engine.State: the supporter strength ranked the
// seats, a tie broken by the better place in the final round (rule 16).
func (s *State) Standings() *engine.Standings {
	if s.Final == nil || len(s.Final.Ranking) == 0 {
		return nil
	}
	l := newLabeling(s.d, s.Names, s.Lang)
	l.plain = false
	out := &engine.Standings{Columns: []string{l.t("standings.strength")}}
	places := make([]Place, len(s.Final.Ranking))
	for i, st := range s.Final.Ranking {
		places[i] = Place{Seat: st.Seat, Place: st.Place, Points: st.Score, RoundPlace: st.Detail["final_round_place"]}
		out.Rows = append(out.Rows, engine.StandingRow{Seat: st.Seat, Place: st.Place, Cells: []string{strconv.Itoa(st.Score)}})
	}
	out.Summary = l.summary(places, places[0]) + "."
	return out
}
