package lords

import (
	"slices"

	"pbem/engine"
)

// Decide validates seat's move and returns the events it causes, followed
// by the automatic events up to the next decision (turning a recruit,
// passing, scoring, a forced claim, the next round). It never changes s.
// Errors: game_over, not_your_turn, bad_move (not a lords move),
// illegal_move (not among Legal(seat)).
func (s *State) Decide(seat int, m engine.Move) ([]engine.Event, error) {
	if s.Phase == PhaseOver {
		return nil, s.ruleErr(engine.CodeGameOver, "error.game_over")
	}
	if seat != s.awaited() {
		return nil, s.ruleErr(engine.CodeNotYourTurn, "error.not_your_turn", seat)
	}
	mv, ok := m.(*Move)
	if !ok || mv == nil {
		return nil, s.ruleErr(engine.CodeBadMove, "error.bad_move")
	}
	if !s.isLegal(seat, mv) {
		return nil, s.ruleErr(engine.CodeIllegalMove, "error.illegal", moveSummary(mv))
	}
	evs := s.primary(seat, mv)
	if quick, ok := s.quickFollow(evs); ok {
		return quick, nil
	}
	return s.follow(evs), nil
}

// ruleErr is the *engine.RuleError of code whose message is the catalog's
// key in the game's language: the rule errors a player reads.
func (s *State) ruleErr(code, key string, args ...any) *engine.RuleError {
	return &engine.RuleError{Code: code, Message: s.labels().t(key, args...)}
}

// follow plays evs on a scratch copy of s and appends the automatic events
// that follow, up to the next decision.
func (s *State) follow(evs []engine.Event) []engine.Event {
	c := s.clone()
	for _, e := range evs {
		c.Apply(e)
	}
	return c.advance(evs)
}

// isLegal reports whether m is among seat's legal moves. The turn's
// action is checked directly (it is the most frequent and has the longest
// list); the other decisions are looked up in their list.
func (s *State) isLegal(seat int, m *Move) bool {
	if s.Phase == PhasePlay && s.Pending == nil {
		switch m.Type {
		case MoveRecruit:
			return m.Card == 0 && m.Seat == 0 && m.Index == 0 && !m.FaceUp && !m.Use &&
				m.Slot >= 0 && m.Slot < len(s.Recruits) && s.Recruits[m.Slot].Card != 0 &&
				len(s.Hands[seat]) < HandLimit
		case MoveMuster:
			return m.Slot == 0 && m.Seat == 0 && m.Index == 0 && !m.Use && m.Card != 0 &&
				slices.Contains(s.Hands[seat], m.Card)
		}
		return false
	}
	for _, l := range s.legal(seat) {
		if l.same(m) {
			return true
		}
	}
	return false
}

// quickFollow returns evs with the automatic events that follow them when
// they can be told without playing them on a scratch copy of the state: a
// decision of the same seat is pending (none follow), the next seat of the
// turn holds cards (none follow), or a new turn starts with its initiative
// holder holding cards (turn_started follows; the recruits are those left
// by evs). Otherwise ok is false and Decide takes the general way.
func (s *State) quickFollow(evs []engine.Event) (_ []engine.Event, ok bool) {
	if s.Phase != PhasePlay || len(evs) == 0 {
		return nil, false
	}
	last := evs[len(evs)-1]
	switch e := last.(type) {
	case Mustered:
		if e.Activate {
			return evs, true
		}
	case PowerUsed:
		if e.Power == Makgill {
			return evs, true
		}
	case Copied:
		if e.Power.targeted() {
			return evs, true
		}
	}
	if s.Step+1 < s.N {
		return evs, len(s.Hands[(s.current()+1)%s.N]) > 0
	}
	// The mover is not the initiative holder (step N-1), so the holder's
	// hand is as it is now.
	if s.Turn >= 5 || len(s.Hands[s.Initiative]) == 0 {
		return nil, false
	}
	rec := s.Recruits
	if r, isRecruit := last.(Recruited); isRecruit {
		rec[r.Slot] = Recruit{Card: r.Replacement, FaceUp: r.FaceUp && r.Replacement != 0}
	}
	ts := TurnStarted{Round: s.Round, Turn: s.Turn + 1, Seat: s.Initiative, Slot: -1}
	for i, r := range rec {
		if r.Card != 0 && !r.FaceUp {
			ts.Slot, ts.Card = i, r.Card
			break
		}
	}
	return append(evs, ts), true
}

func moveSummary(m *Move) string {
	raw, err := m.MarshalJSON()
	if err != nil {
		return m.Type
	}
	return string(raw)
}

// primary turns a legal move into its events.
func (s *State) primary(seat int, m *Move) []engine.Event {
	p := s.Pending
	switch m.Type {
	case MoveRecruit:
		r := s.Recruits[m.Slot]
		rep, resh := s.peekDraw()
		return []engine.Event{Recruited{Seat: seat, Slot: m.Slot, FaceUp: r.FaceUp, Card: r.Card,
			Replacement: rep, Empty: rep == 0, Reshuffled: resh}}
	case MoveMuster:
		activate := m.FaceUp && s.canActivate(m.Card) &&
			s.useful(seat, m.Card, s.d.clan(m.Card), len(s.Hands[seat])-1)
		return []engine.Event{Mustered{Seat: seat, Card: m.Card, FaceUp: m.FaceUp, Extra: p != nil, Activate: activate}}
	case MovePower:
		if !m.Use {
			return []engine.Event{PowerDeclined{Seat: seat, Card: p.Card}}
		}
		return []engine.Event{s.powerUsed(seat, p.Card, p.Power)}
	case MoveCopy:
		f := s.Armies[m.Seat][m.Index]
		pw := s.d.clan(f.Card)
		evs := []engine.Event{Copied{Seat: seat, Card: p.Card, Target: m.Seat, Index: m.Index, Copied: f.Card, Power: pw}}
		if !pw.targeted() {
			evs = append(evs, s.powerUsed(seat, p.Card, pw))
		}
		return evs
	case MoveTarget:
		switch p.Power {
		case Cockburn:
			return []engine.Event{SupporterSwapped{Seat: seat, Card: p.Card, Supporter: m.Card}}
		case Fergusson:
			f := s.Armies[m.Seat][m.Index]
			return []engine.Event{Swapped{Seat: seat, Card: p.Card, Target: m.Seat, Index: m.Index, Taken: f.Card, FaceUp: f.FaceUp}}
		default: // Wemyss
			f := s.Armies[m.Seat][m.Index]
			return []engine.Event{Discarded{Seat: seat, Card: p.Card, Target: m.Seat, Index: m.Index, Discarded: f.Card, FaceUp: f.FaceUp}}
		}
	case MoveClaim:
		return []engine.Event{Claimed{Seat: seat, Card: m.Card}}
	}
	return nil
}

func (s *State) powerUsed(seat, card int, p Clan) PowerUsed {
	e := PowerUsed{Seat: seat, Card: card, Power: p}
	if p == Forsyth {
		e.Drawn, e.Reshuffled = s.peekDraw()
	}
	return e
}

// advance applies and appends the automatic events until a decision is
// awaited or the game ends. s is a scratch copy.
func (s *State) advance(evs []engine.Event) []engine.Event {
	for {
		e := s.autoEvent()
		if e == nil {
			return evs
		}
		s.Apply(e)
		evs = append(evs, e)
	}
}

// autoEvent is the event that happens by itself in s, or nil when a
// decision is awaited.
func (s *State) autoEvent() engine.Event {
	switch s.Phase {
	case PhasePlay:
		if s.Pending != nil {
			return nil
		}
		if s.Turn > 5 {
			return RoundScored{Round: s.Round, Armies: s.scoreRound()}
		}
		if s.FlipDue {
			e := TurnStarted{Round: s.Round, Turn: s.Turn, Seat: s.Initiative, Slot: -1}
			for i, r := range s.Recruits {
				if r.Card != 0 && !r.FaceUp {
					e.Slot, e.Card = i, r.Card
					break
				}
			}
			return e
		}
		if seat := s.current(); !s.canAct(seat) {
			return Passed{Seat: seat}
		}
	case PhaseClaim:
		if !s.claimsOpen() {
			return s.roundEnded()
		}
		if len(s.Supporters) == 1 {
			return Claimed{Seat: s.Order[s.Claimant].Seat, Card: s.Supporters[0]}
		}
	case PhaseBetween:
		if s.gameOver() {
			return GameEnded{Round: s.Round, Ranking: s.finalRanking()}
		}
		c := s.clone()
		sup, redrawn, resh := c.dealRound()
		return RoundStarted{Round: s.Round + 1, Supporters: sup, Redrawn: redrawn, Reshuffled: resh}
	}
	return nil
}

// roundEnded is the end of the claims: what is discarded, what is kept,
// who takes the initiative (ruling 14: it stays if nobody had followers).
func (s *State) roundEnded() RoundEnded {
	e := RoundEnded{Round: s.Round, Initiative: s.Initiative, Discarded: []int{}}
	if len(s.Order) > 0 && s.Order[0].Claims > 0 {
		e.Initiative = s.Order[0].Seat
	}
	e.Discarded = append(e.Discarded, s.Supporters...)
	for _, r := range s.Recruits {
		if r.Card != 0 {
			e.Discarded = append(e.Discarded, r.Card)
		}
	}
	for _, army := range s.Armies {
		for _, f := range army {
			if endOfRoundPower(f) == MacDonnell {
				e.Kept = append(e.Kept, f.Card)
			} else {
				e.Discarded = append(e.Discarded, f.Card)
			}
		}
	}
	e.Points = make([]int, s.N)
	for seat := range s.N {
		e.Points[seat] = s.points(seat)
	}
	return e
}
