package bagpipes

import (
	"slices"

	"pbem/engine"
)

// Apply changes the state by one event. Draws and shuffles happen here,
// from the state's own decks and PRNG, so replaying gives the same state.
func (s *state) Apply(e engine.Event) { s.apply(e, nil) }

// apply does Apply and, when rec is not nil, records the cards drawn.
func (s *state) apply(e engine.Event, rec *[]Draw) {
	switch e := e.(type) {
	case RoundStarted:
		s.startRound(e)
	case Replenished:
		s.replenish(e.Seat, e.Action)
		if e.Stay {
			s.StayLeft--
		} else {
			s.Replenished = true
		}
	case Relocated:
		s.P[e.Seat].Castle -= e.Units
		s.P[e.Seat].Camp += e.Units
	case CardPlayed:
		s.playCard(e, rec)
	case TurnEnded:
		s.Step++
		if s.Step >= s.N {
			s.Phase = phBadge
			if s.N == 2 {
				s.enterChoice()
			}
		} else {
			s.Turn = s.next(s.Turn)
			s.Replenished = false
		}
	case BadgePassed:
		s.BadgeFrom, s.Badge = e.From, e.To
		if e.Round > 0 {
			s.BadgeRound = e.Round
		}
		if s.Phase == phBadge2 {
			p := &s.P[e.To]
			if p.Camp > 1 {
				s.ScotCamp += p.Camp - 1
				p.Camp = 1
			}
			s.Phase = phBattle
		} else if s.Stay >= 0 {
			s.Phase = phStayGive
		} else {
			s.enterChoice()
		}
	case BadgeKept:
		s.Phase = phBattle
	case StayHomeGiven:
		s.StayFrom, s.Stay, s.StayHome, s.StayLeft = e.From, e.To, e.To, 3
		s.Phase = phStayActs
	case StayedHome:
		s.P[e.Seat].Camp = 0
		s.enterChoice()
	case ChoiceMade:
		p := &s.P[e.Seat]
		if e.Side == sideNames[sideEngland] {
			p.Side = sideEngland
		} else {
			p.Side = sideScotland
		}
		if e.Dagger != "" {
			i := s.Set.dagByID(e.Dagger)
			p.Prepared = i
			if k := slices.Index(p.DagHand, i); k >= 0 {
				p.DagHand = slices.Delete(p.DagHand, k, k+1)
			}
		}
		if s.allChosen() {
			s.enterWindow(phBefore)
		}
	case Passed:
		s.advanceWindow(s.next(s.Turn), s.Step+1)
	case Battle:
		s.battle()
	case Awards:
		s.awards(e, rec)
	case RoundEnded:
		s.endRound()
	case GameEnded:
		s.endGame(e)
	}
}

func (s *state) startRound(e RoundStarted) {
	s.Round = e.Round
	s.Army = s.ArmyDeck[len(s.ArmyDeck)-1]
	s.ArmyDeck = s.ArmyDeck[:len(s.ArmyDeck)-1]
	for _, eff := range s.army().Effects {
		s.effect(eff, -1, -1, -1, nil)
	}
	if s.N == 2 {
		s.ScotCamp += 3
	}
	if s.Opt.ThreePlayer {
		s.ScotCamp++
	}
	s.Phase = phActions
	s.Turn, s.Step, s.Replenished = s.Badge, 0, false
}

func (s *state) replenish(seat int, action string) {
	p := &s.P[seat]
	switch action {
	case ActTaxes:
		p.Gold++
	case ActMilitia:
		s.militia()
	case ActTroops:
		p.Castle += 2
	case ActMercenaries:
		p.Gold--
		p.Castle += 4
	}
}

// militia adds a unit to every fighting player's camp and to Scotland's.
func (s *state) militia() {
	for i := range s.P {
		if s.fights(i) {
			s.P[i].Camp++
		}
	}
	s.ScotCamp++
}

func (s *state) enterChoice() {
	s.Phase = phChoice
	for i := range s.P {
		s.P[i].Side, s.P[i].Prepared = sideNone, -1
	}
	if s.bound(s.Badge) {
		s.P[s.Badge].Side = sideScotland
	}
	if s.allChosen() {
		s.enterWindow(phBefore)
	}
}

func (s *state) allChosen() bool {
	for i := range s.P {
		if s.fights(i) && s.P[i].Side == sideNone {
			return false
		}
	}
	return true
}

// mayPlayIn tells whether seat takes a turn in a card window: it must
// fight, not have deserted (awards) and hold a card it might play, as far
// as the others can tell (hand size, face-up "x2" cards).
func (s *state) mayPlayIn(seat int, ph string) bool {
	if !s.fights(seat) {
		return false
	}
	p := &s.P[seat]
	if ph == phAwardCards && p.Deserter {
		return false
	}
	if len(p.Hand)-p.Fresh > 0 {
		return true
	}
	for _, r := range p.TableRound {
		if r < s.Round {
			return true
		}
	}
	return false
}

func (s *state) enterWindow(ph string) {
	s.Phase = ph
	s.advanceWindow(s.Badge, 0)
}

// advanceWindow gives the window's turn to the first seat from seat (step
// steps after the badge holder) that may play, or closes the window.
func (s *state) advanceWindow(seat, step int) {
	for ; step < s.N; step++ {
		if s.mayPlayIn(seat, s.Phase) {
			s.Turn, s.Step = seat, step
			return
		}
		seat = s.next(seat)
	}
	switch s.Phase {
	case phBefore:
		if s.N == 2 {
			s.Phase = phBadge2
		} else {
			s.Phase = phBattle
		}
	case phAwardCards:
		s.Phase = phEnd
	}
}

// forces computes the armies' strengths; a fighting player with an empty
// camp is a deserter.
func (s *state) forces() (scot, eng int) {
	scot, eng = s.ScotCamp, s.shield()+s.EngBonus
	for i := range s.P {
		p := &s.P[i]
		if !s.fights(i) {
			continue
		}
		if p.Side == sideScotland {
			scot += p.Camp
		} else {
			eng += p.Camp
		}
	}
	return scot, eng
}

func (s *state) battle() {
	s.Revealed = true
	scot, eng := s.forces()
	for i := range s.P {
		s.P[i].Deserter = s.fights(i) && s.P[i].Camp == 0
	}
	if s.N == 2 {
		for i := range s.P {
			p, q := &s.P[i], &s.P[1-i]
			if q.Prepared < 0 {
				continue
			}
			if p.Side == sideEngland {
				p.Daggers = append(p.Daggers, q.Prepared)
			} else {
				p.Spent = append(p.Spent, q.Prepared)
			}
		}
		for i := range s.P {
			s.P[i].Prepared = -1
		}
	}
	s.ScotForce, s.EngForce = scot, eng
	if scot >= eng {
		s.Won = sideScotland
	} else {
		s.Won = sideEngland
		s.Defeats++
	}
	s.Phase = phAwards
}

// awards pays e's gold and units and draws the cards of the rewards, from
// the badge holder clockwise: a bagpipe card for each supporter of
// Scotland who fought when Scotland won, a dagger card for each seat of
// e.Daggers. An Awards event written before e.Daggers existed (nil) names
// no one: then the supporters of England who did not desert draw, as the
// rules of that time had it, so that an old game replays to its state.
func (s *state) awards(e Awards, rec *[]Draw) {
	seat := s.Badge
	for range s.N {
		p := &s.P[seat]
		p.Gold += e.Gold[seat]
		p.Castle += e.Units[seat]
		fought := s.fights(seat) && !p.Deserter
		if fought && p.Side == sideScotland && s.Won == sideScotland {
			s.giveBagpipes(seat, 1, true, rec)
		}
		draws := slices.Contains(e.Daggers, seat)
		if e.Daggers == nil {
			draws = fought && p.Side == sideEngland && s.N > 2
		}
		if draws {
			s.giveDaggers(seat, 1, rec)
		}
		seat = s.next(seat)
	}
	s.enterWindow(phAwardCards)
}

func (s *state) giveBagpipes(seat, n int, fresh bool, rec *[]Draw) {
	p := &s.P[seat]
	for range n {
		c := s.drawBag()
		if c < 0 {
			return
		}
		p.Hand = append(p.Hand, c)
		if fresh {
			p.Fresh++
		}
		if rec != nil {
			*rec = append(*rec, Draw{Seat: seat, Deck: "bagpipe", Card: s.Set.Bagpipes[c].ID})
		}
	}
}

func (s *state) giveDaggers(seat, n int, rec *[]Draw) {
	p := &s.P[seat]
	for range n {
		c := s.drawDag()
		if c < 0 {
			p.Virtual++
			if rec != nil {
				*rec = append(*rec, Draw{Seat: seat, Deck: "dagger", Daggers: 2, Virtual: true})
			}
			continue
		}
		p.Daggers = append(p.Daggers, c)
		if rec != nil {
			*rec = append(*rec, Draw{Seat: seat, Deck: "dagger", Card: s.Set.Daggers[c].ID, Daggers: s.Set.Daggers[c].Daggers})
		}
	}
}

// discardDaggers discards seat's n worst dagger cards (most daggers first;
// a virtual card counts two).
func (s *state) discardDaggers(seat, n int, rec *[]Draw) {
	p := &s.P[seat]
	for range n {
		best, bestV := -1, 0
		for k, d := range p.Daggers {
			if v := s.Set.Daggers[d].Daggers; v > bestV {
				best, bestV = k, v
			}
		}
		if p.Virtual > 0 && bestV <= 2 {
			p.Virtual--
			if rec != nil {
				*rec = append(*rec, Draw{Seat: seat, Deck: "dagger_discard", Daggers: 2, Virtual: true})
			}
			continue
		}
		if best < 0 {
			return
		}
		d := p.Daggers[best]
		p.Daggers = slices.Delete(p.Daggers, best, best+1)
		s.DagOut = append(s.DagOut, d)
		if rec != nil {
			*rec = append(*rec, Draw{Seat: seat, Deck: "dagger_discard", Card: s.Set.Daggers[d].ID, Daggers: bestV})
		}
	}
}

func (s *state) endRound() {
	for i := range s.P {
		p := &s.P[i]
		p.Camp, p.Side, p.Deserter, p.Fresh, p.Prepared = 0, sideNone, false, 0, -1
	}
	s.ScotCamp, s.EngBonus, s.Revealed, s.Won = 0, 0, false, sideNone
	s.StayHome = -1
	s.Phase = phInvasion
}
