package bagpipes

import (
	"slices"

	"pbem/engine"
)

// ToMove lists the seats whose decision is awaited.
func (s *state) ToMove() []int {
	switch s.Phase {
	case phActions, phBefore, phAwardCards:
		return []int{s.Turn}
	case phBadge, phBadge2:
		return []int{s.Badge}
	case phStayGive:
		return []int{s.Stay}
	case phStayActs:
		return []int{s.StayHome}
	case phChoice:
		var out []int
		for i := range s.P {
			if s.fights(i) && s.P[i].Side == sideNone {
				out = append(out, i)
			}
		}
		return out
	}
	return []int{}
}

func (s *state) awaits(seat int) bool {
	if seat < 0 || seat >= s.N {
		return false
	}
	switch s.Phase {
	case phChoice:
		return s.fights(seat) && s.P[seat].Side == sideNone
	case phActions, phBefore, phAwardCards:
		return seat == s.Turn
	case phBadge, phBadge2:
		return seat == s.Badge
	case phStayGive:
		return seat == s.Stay
	case phStayActs:
		return seat == s.StayHome
	}
	return false
}

// Decide validates a move of seat and returns the events it causes,
// followed by the automatic events up to the next awaited decision.
func (s *state) Decide(seat int, mv engine.Move) ([]engine.Event, error) {
	if s.Res != nil {
		return nil, s.ruleErr(engine.CodeGameOver, "error.game_over")
	}
	if !s.awaits(seat) {
		return nil, s.ruleErr(engine.CodeNotYourTurn, "error.not_awaited", seat)
	}
	var m Move
	switch v := mv.(type) {
	case Move:
		m = v
	case *Move:
		if v == nil {
			return nil, s.ruleErr(engine.CodeBadMove, "error.no_move")
		}
		m = *v
	default:
		return nil, s.ruleErr(engine.CodeBadMove, "error.not_ours")
	}
	ev, err := s.check(seat, m)
	if err != nil {
		return nil, err
	}
	if s.quiet(ev) {
		return []engine.Event{ev}, nil
	}
	c := s.clone()
	return c.run(ev), nil
}

// quiet tells whether ev, applied now, draws no card and triggers no
// automatic event, so that Decide need not simulate it on a copy.
func (s *state) quiet(ev engine.Event) bool {
	switch e := ev.(type) {
	case Relocated, StayHomeGiven:
		return true
	case BadgePassed:
		// Someone not bound to Scotland is left to choose (3+ players).
		return s.Phase == phBadge && s.N >= 3
	case Passed:
		// The window stays open if a later seat may play.
		seat := s.next(s.Turn)
		for step := s.Step + 1; step < s.N; step++ {
			if s.mayPlayIn(seat, s.Phase) {
				return true
			}
			seat = s.next(seat)
		}
		return false
	case Replenished:
		return !e.Stay || s.StayLeft > 1
	case TurnEnded:
		return s.Step+1 < s.N
	case ChoiceMade:
		waiting := 0
		for i := range s.P {
			if s.fights(i) && s.P[i].Side == sideNone {
				waiting++
			}
		}
		return waiting > 1
	case CardPlayed:
		for _, eff := range s.Set.Bagpipes[s.Set.bagByID[e.Card]].Effects {
			switch eff.Kind {
			case KindBagpipe, KindDagger, KindDiscardDagger:
				return false
			}
		}
		return true
	}
	return false
}

// run applies ev to s, then the automatic events that follow, recording
// the cards drawn into the events, and returns them all.
func (s *state) run(ev engine.Event) []engine.Event {
	out := make([]engine.Event, 0, 4)
	for ev != nil {
		var rec []Draw
		s.apply(ev, &rec)
		switch e := ev.(type) {
		case CardPlayed:
			e.Draws = rec
			ev = e
		case Awards:
			e.Draws = rec
			ev = e
		}
		out = append(out, ev)
		ev = s.auto()
	}
	return out
}

// auto returns the automatic event due now, or nil if a decision is awaited.
func (s *state) auto() engine.Event {
	switch s.Phase {
	case phInvasion:
		if s.Round > 0 && (s.Defeats >= s.DefeatLimit || s.Round >= s.Rounds) {
			reason := "rounds"
			if s.Defeats >= s.DefeatLimit {
				reason = "scotland_defeated"
			}
			return GameEnded{Reason: reason, Traitor: s.traitor()}
		}
		if s.N == 2 {
			a, b := s.daggerTotal(0), s.daggerTotal(1)
			if a >= b+5 {
				return GameEnded{Reason: "five_daggers", Traitor: 0}
			}
			if b >= a+5 {
				return GameEnded{Reason: "five_daggers", Traitor: 1}
			}
		}
		a := &s.Set.armies[s.ArmyDeck[len(s.ArmyDeck)-1]]
		return RoundStarted{Round: s.Round + 1, Army: a.ID, Name: a.Name}
	case phBadge:
		if s.Opt.ThreePlayer {
			return BadgePassed{From: s.Badge, To: s.next(s.Badge)}
		}
	case phStayActs:
		if s.StayLeft == 0 {
			return StayedHome{Seat: s.StayHome, Discarded: s.P[s.StayHome].Camp}
		}
	case phBattle:
		return s.battleEvent()
	case phAwards:
		return s.awardsEvent()
	case phEnd:
		return RoundEnded{Round: s.Round}
	}
	return nil
}

// awardsEvent hands out the round's rewards (ruling 5). Every fighting
// supporter of England counts in the crown's split, deserters included;
// a deserter's share, like the remainder, is not paid (« L'or qui n'est
// pas attribué est défaussé »). Every fighting supporter of England draws a
// dagger card (3+ players), deserters included: a dagger card is the mark
// of the side, not a reward.
func (s *state) awardsEvent() Awards {
	a := s.army()
	e := Awards{Gold: make([]int, s.N), Units: make([]int, s.N), Daggers: []int{}}
	english := 0
	for i := range s.P {
		if s.fights(i) && s.P[i].Side == sideEngland {
			english++
		}
	}
	seat := s.Badge
	for range s.N {
		p := &s.P[seat]
		if s.fights(seat) && p.Side == sideEngland && s.N > 2 {
			e.Daggers = append(e.Daggers, seat)
		}
		if s.fights(seat) && !p.Deserter {
			switch {
			case p.Side == sideScotland && s.Won == sideScotland:
				e.Gold[seat] = a.ScotlandWon
			case p.Side == sideScotland:
				e.Gold[seat], e.Units[seat] = a.EnglandWon, 1
			case a.Generous:
				e.Gold[seat] = a.Crown
			default:
				e.Gold[seat] = a.Crown / english
			}
		}
		seat = s.next(seat)
	}
	return e
}

func (s *state) battleEvent() engine.Event {
	scot, eng := s.forces()
	e := Battle{Sides: make([]string, s.N), Scotland: scot, England: eng,
		Winner: sideNames[sideScotland], Defeats: s.Defeats, Deserters: []int{}}
	if scot < eng {
		e.Winner, e.Defeats = sideNames[sideEngland], s.Defeats+1
	}
	for i, p := range s.P {
		e.Sides[i] = sideNames[p.Side]
		if s.fights(i) && p.Camp == 0 {
			e.Deserters = append(e.Deserters, i)
		}
	}
	if s.N == 2 {
		e.Offered = make([]int, 2)
		for i, p := range s.P {
			if p.Prepared >= 0 {
				e.Offered[i] = s.Set.Daggers[p.Prepared].Daggers
			}
		}
	}
	return e
}

// traitor is the seat with at least five daggers more than every other
// seat, or -1.
func (s *state) traitor() int {
	best, bestT, second := -1, -1, -1
	for i := range s.P {
		t := s.daggerTotal(i)
		if t > bestT {
			best, second, bestT = i, bestT, t
		} else if t > second {
			second = t
		}
	}
	if best >= 0 && bestT >= second+5 {
		return best
	}
	return -1
}

// ruleErr is the *engine.RuleError of code whose message is the catalog's
// key in the game's language: the rule errors a player reads.
func (s *state) ruleErr(code, key string, args ...any) *engine.RuleError {
	return &engine.RuleError{Code: code, Message: texts.T(s.labels().language(), key, args...)}
}

// check validates m for seat and returns its event.
func (s *state) check(seat int, m Move) (engine.Event, error) {
	p := &s.P[seat]
	illegal := func(key string, args ...any) (engine.Event, error) {
		return nil, s.ruleErr(engine.CodeIllegalMove, key, args...)
	}
	switch m.Type {
	case MoveReplenish:
		if s.Phase != phActions && s.Phase != phStayActs {
			return illegal("error.no_replenish")
		}
		if s.Phase == phActions && s.Replenished {
			return illegal("error.replenished")
		}
		if !slices.Contains(replenishActions[:], m.Action) {
			return nil, s.ruleErr(engine.CodeBadMove, "error.action", m.Action)
		}
		if m.Action == ActMercenaries && p.Gold < 1 {
			return illegal("error.mercenaries")
		}
		return Replenished{Seat: seat, Action: m.Action, Stay: s.Phase == phStayActs}, nil
	case MoveRelocate:
		if s.Phase != phActions {
			return illegal("error.relocate_phase")
		}
		if m.Units < 1 || m.Units > p.Castle {
			return illegal("error.relocate_units", p.Castle)
		}
		return Relocated{Seat: seat, Units: m.Units}, nil
	case MovePlay:
		return s.checkPlay(seat, m)
	case MoveEndTurn:
		if s.Phase != phActions {
			return illegal("error.end_phase")
		}
		if !s.Replenished {
			return illegal("error.end_replenish")
		}
		return TurnEnded{Seat: seat}, nil
	case MovePassBadge:
		if !slices.Contains(s.badgeReceivers(), m.To) {
			return illegal("error.badge_to", m.To)
		}
		e := BadgePassed{From: seat, To: m.To}
		if s.Phase == phBadge2 {
			e.Moved, e.Round = max(0, s.P[m.To].Camp-1), s.Round
		}
		return e, nil
	case MoveKeepBadge:
		if s.Phase != phBadge2 {
			return illegal("error.keep_badge")
		}
		return BadgeKept{Seat: seat}, nil
	case MoveStayHome:
		if s.Phase != phStayGive || !slices.Contains(s.stayReceivers(), m.To) {
			return illegal("error.stay_to", m.To)
		}
		return StayHomeGiven{From: seat, To: m.To}, nil
	case MoveChoose:
		if s.Phase != phChoice {
			return illegal("error.choice_phase")
		}
		if m.Side != sideNames[sideScotland] && m.Side != sideNames[sideEngland] {
			return nil, s.ruleErr(engine.CodeBadMove, "error.side")
		}
		e := ChoiceMade{Seat: seat, Side: m.Side}
		if s.N == 2 && (len(p.DagHand) > 0 || m.Dagger != 0) {
			k := slices.IndexFunc(p.DagHand, func(d int) bool { return s.Set.Daggers[d].Daggers == m.Dagger })
			if k < 0 {
				return illegal("error.no_dagger", m.Dagger)
			}
			d := p.DagHand[k]
			e.Dagger, e.Daggers = s.Set.Daggers[d].ID, s.Set.Daggers[d].Daggers
		} else if m.Dagger != 0 {
			return illegal("error.dagger_2p")
		}
		return e, nil
	case MovePass:
		if s.Phase != phBefore && s.Phase != phAwardCards {
			return illegal("error.pass_phase")
		}
		return Passed{Seat: seat, Phase: s.Phase}, nil
	}
	return nil, s.ruleErr(engine.CodeBadMove, "error.move_type", m.Type)
}

// cardPhase is the bagpipe symbol playable in the current phase.
func (s *state) cardPhase() string {
	switch s.Phase {
	case phActions:
		return PhaseActions
	case phBefore:
		return PhaseBeforeReveal
	case phAwardCards:
		return PhaseAwards
	}
	return ""
}

// playable lists the cards seat may play now (from hand, then table).
func (s *state) playable(seat int) []int {
	ph := s.cardPhase()
	if ph == "" {
		return nil
	}
	p := &s.P[seat]
	var out []int
	for _, c := range p.Hand[:len(p.Hand)-p.Fresh] {
		if s.Set.Bagpipes[c].Phase == ph && s.canPay(seat, c) {
			out = append(out, c)
		}
	}
	for k, c := range p.Table {
		if p.TableRound[k] < s.Round && s.Set.Bagpipes[c].Phase == ph && s.canPay(seat, c) {
			out = append(out, c)
		}
	}
	return out
}

// canPay checks the card's own costs: gold to lose and a choice to switch.
func (s *state) canPay(seat, c int) bool {
	cost := 0
	for _, e := range s.Set.Bagpipes[c].Effects {
		if e.Kind == KindLoseGold && (e.Who == "" || e.Who == WhoSelf) {
			cost += e.Amount
		}
		if e.Kind == KindSwitch && s.bound(seat) {
			return false
		}
	}
	return s.P[seat].Gold >= cost
}

// cardParams tells what a card asks when played: how many units, from
// minUnits to maxUnits (maxUnits -1: it asks none; below minUnits: none
// can be chosen now, nothing to move), and whether it needs a target.
// minUnits is 1 where the card's other effects do nothing for its player
// at no unit (noUnitServes, ruling 4), else 0, and 0 in a game begun
// before ruling 4 (UnitFloor).
func (s *state) cardParams(seat, c int) (minUnits, maxUnits int, target bool) {
	maxUnits = -1
	if s.UnitFloor && !noUnitServes(s.Set.Bagpipes[c]) {
		minUnits = 1
	}
	p := &s.P[seat]
	for _, e := range s.Set.Bagpipes[c].Effects {
		if e.Who == WhoTarget {
			target = true
		}
		if isVariable(e) {
			switch e.Kind {
			case KindRelocate:
				maxUnits = min(e.Amount, p.Castle)
			case KindWithdraw:
				maxUnits = min(e.Amount, p.Camp)
			default:
				maxUnits = e.Amount
			}
		}
	}
	return minUnits, maxUnits, target
}

// noUnitServes reports whether card c, played with no unit of its
// variable unit effect, still does something for its player: an effect
// besides the variable ones that is not its own cost (its player losing
// gold or units, or drawing a dagger card). Vive la France! with no
// castle unit still adds 3 units to Scotland's camp; Forced March with
// no unit does nothing, and Treaty with Eric II only costs 2 gold: a
// user trial met such moves among the legal ones.
func noUnitServes(c BagpipeCard) bool {
	for _, e := range c.Effects {
		self := e.Who == "" || e.Who == WhoSelf
		cost := self && (e.Kind == KindLoseGold || e.Kind == KindLoseUnits || e.Kind == KindDagger)
		if !isVariable(e) && !cost {
			return true
		}
	}
	return false
}

// targets lists the seats a card of seat may target.
func (s *state) targets(seat int) []int {
	var out []int
	for i := range s.P {
		if i != seat && s.fights(i) {
			out = append(out, i)
		}
	}
	return out
}

func (s *state) checkPlay(seat int, m Move) (engine.Event, error) {
	c, ok := s.Set.bagByID[m.Card]
	if !ok {
		return nil, s.ruleErr(engine.CodeIllegalMove, "error.no_card", m.Card)
	}
	if !slices.Contains(s.playable(seat), c) {
		return nil, s.ruleErr(engine.CodeIllegalMove, "error.cannot_play", s.Set.bagName(c, s.labels().language()))
	}
	minUnits, maxUnits, target := s.cardParams(seat, c)
	name := s.Set.bagName(c, s.labels().language())
	switch {
	case maxUnits < 0 && m.Units >= 0:
		return nil, s.ruleErr(engine.CodeIllegalMove, "error.no_units", name)
	case maxUnits >= 0 && maxUnits < minUnits:
		return nil, s.ruleErr(engine.CodeIllegalMove, "error.units_none", name)
	case maxUnits >= 0 && (m.Units < minUnits || m.Units > maxUnits):
		return nil, s.ruleErr(engine.CodeIllegalMove, "error.units", name, minUnits, maxUnits)
	case !target && m.Target >= 0:
		return nil, s.ruleErr(engine.CodeIllegalMove, "error.no_target", name)
	case target && !slices.Contains(s.targets(seat), m.Target):
		return nil, s.ruleErr(engine.CodeIllegalMove, "error.target", name)
	}
	return CardPlayed{Seat: seat, Card: m.Card, Name: s.Set.Bagpipes[c].Name, Units: m.Units, Target: m.Target}, nil
}

// badgeReceivers lists who may receive the badge of honour now.
func (s *state) badgeReceivers() []int {
	var out []int
	switch s.Phase {
	case phBadge:
		if s.Opt.ThreePlayer {
			return []int{s.next(s.Badge)}
		}
		for i := range s.P {
			if i != s.Badge && i != s.BadgeFrom {
				out = append(out, i)
			}
		}
	case phBadge2:
		if !s.badgeBack2() {
			out = append(out, 1-s.Badge)
		}
	}
	return out
}

// badgeBack2 reports whether, in the 2-player game, passing the badge
// would give it back to the player who passed it in the previous round:
// « Vous ne pouvez pas passer la médaille d'honneur au joueur qui vous l'a
// passée au tour précédent », kept by « Toutes les autres règles restent
// les mêmes » (ruling 10).
func (s *state) badgeBack2() bool {
	return s.BadgeRound > 0 && s.BadgeRound == s.Round-1 && s.BadgeFrom == 1-s.Badge
}

// stayReceivers lists who may receive the Stay Home! token now.
func (s *state) stayReceivers() []int {
	var out []int
	for i := range s.P {
		if i != s.Stay && i != s.Badge && i != s.StayFrom {
			out = append(out, i)
		}
	}
	return out
}
