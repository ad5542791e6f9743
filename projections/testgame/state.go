package testgame

import (
	"slices"
	"strconv"

	"pbem/engine"
)

// State is the test game's state.
type State struct {
	Target int        `json:"target"`
	Rounds int        `json:"rounds"`
	Round  int        `json:"round"`
	Turn   int        `json:"turn"`
	Hands  [][]string `json:"hands"`
	Deck   []string   `json:"deck"`
	Totals []int      `json:"totals"`
	Over   bool       `json:"over"`
	// ForcedDraw is the option Forced.
	ForcedDraw bool `json:"forced_draw,omitempty"`
}

var _ engine.State = (*State)(nil)

// Value is a card's score: "c17" is worth 7, "c20" 10.
func Value(card string) int {
	n, _ := strconv.Atoi(card[1:])
	return (n-1)%10 + 1
}

// Players implements engine.State.
func (s *State) Players() int { return len(s.Hands) }

// ToMove implements engine.State.
func (s *State) ToMove() []int {
	if s.Over {
		return nil
	}
	return []int{s.Turn}
}

// Legal implements engine.State.
func (s *State) Legal(seat int) []engine.Move {
	if s.Over || seat != s.Turn {
		return nil
	}
	var out []engine.Move
	for _, c := range s.Hands[seat] {
		out = append(out, Move{Kind: "play", Card: c, Text: "Play " + c})
	}
	if len(s.Deck) > 0 && len(s.Hands[seat]) < 5 {
		out = append(out, Move{Kind: "draw", Text: "Draw a card"})
	}
	return out
}

// Decide implements engine.State.
func (s *State) Decide(seat int, m engine.Move) ([]engine.Event, error) {
	if s.Over {
		return nil, engine.Errorf(engine.CodeGameOver, "the game is over")
	}
	if seat != s.Turn {
		return nil, engine.Errorf(engine.CodeNotYourTurn, "it is seat %d's turn", s.Turn)
	}
	mv, ok := m.(Move)
	if !ok {
		return nil, engine.Errorf(engine.CodeBadMove, "not a count move")
	}
	var evs []engine.Event
	switch mv.Kind {
	case "play":
		if !slices.Contains(s.Hands[seat], mv.Card) {
			return nil, engine.Errorf(engine.CodeIllegalMove, "%s is not in your hand", mv.Card)
		}
		evs = append(evs, Played{Seat: seat, Card: mv.Card})
	case "draw":
		if len(s.Deck) == 0 || len(s.Hands[seat]) >= 5 {
			return nil, engine.Errorf(engine.CodeIllegalMove, "you cannot draw now")
		}
		evs = append(evs, Drew{Seat: seat, Card: s.Deck[0]})
	}
	// Look ahead on a copy for the end of the round or game.
	c := s.Clone().(*State)
	for _, e := range evs {
		c.Apply(e)
	}
	if c.Turn == 0 {
		evs = append(evs, RoundEnded{Round: s.Round})
		c.Apply(evs[len(evs)-1])
	}
	if slices.ContainsFunc(c.Totals, func(t int) bool { return t >= c.Target }) || c.Round > c.Rounds || c.stuck() {
		evs = append(evs, GameEnded{})
	}
	return evs, nil
}

func (s *State) stuck() bool {
	return len(s.Deck) == 0 && len(s.Hands[s.Turn]) == 0
}

// Apply implements engine.State.
func (s *State) Apply(e engine.Event) {
	switch e := e.(type) {
	case Played:
		i := slices.Index(s.Hands[e.Seat], e.Card)
		if i >= 0 {
			s.Hands[e.Seat] = slices.Delete(s.Hands[e.Seat], i, i+1)
		}
		s.Totals[e.Seat] += Value(e.Card)
		s.Turn = (s.Turn + 1) % len(s.Hands)
	case Drew:
		s.Hands[e.Seat] = append(s.Hands[e.Seat], s.Deck[0])
		s.Deck = s.Deck[1:]
		s.Turn = (s.Turn + 1) % len(s.Hands)
	case RoundEnded:
		s.Round++
	case GameEnded:
		s.Over = true
	}
}

// View is the test game's view of a seat: a JSON object.
type View map[string]any

// ViewSeat implements engine.SeatView.
func (v View) ViewSeat() int { seat, _ := v["seat"].(int); return seat }

// Score implements engine.SeatView: the round, and each seat's total.
func (v View) Score() engine.Score {
	round, _ := v["round"].(int)
	totals, _ := v["totals"].([]int)
	return engine.Score{Round: round, Seats: slices.Clone(totals)}
}

// View implements engine.State.
func (s *State) View(seat int) engine.SeatView {
	sizes := make([]int, len(s.Hands))
	for i, h := range s.Hands {
		sizes[i] = len(h)
	}
	v := View{"round": s.Round, "turn": s.Turn, "totals": s.Totals, "hand_sizes": sizes,
		"deck_size": len(s.Deck), "target": s.Target, "seat": seat, "over": s.Over}
	if seat >= 0 && seat < len(s.Hands) {
		v["hand"] = s.Hands[seat]
	}
	return v
}

// Result implements engine.State.
func (s *State) Result() *engine.Result {
	if !s.Over {
		return nil
	}
	seats := make([]int, len(s.Totals))
	for i := range seats {
		seats[i] = i
	}
	slices.SortStableFunc(seats, func(a, b int) int { return s.Totals[b] - s.Totals[a] })
	r := &engine.Result{Summary: "highest total wins"}
	for i, seat := range seats {
		place := i + 1
		if i > 0 && s.Totals[seat] == s.Totals[seats[i-1]] {
			place = r.Ranking[i-1].Place
		}
		r.Ranking = append(r.Ranking, engine.Standing{Seat: seat, Place: place, Score: s.Totals[seat]})
	}
	return r
}

// Standings implements engine.State: the highest total wins.
func (s *State) Standings() *engine.Standings {
	r := s.Result()
	if r == nil {
		return nil
	}
	out := &engine.Standings{Summary: r.Summary, Columns: []string{"Total"}}
	for _, st := range r.Ranking {
		out.Rows = append(out.Rows, engine.StandingRow{Seat: st.Seat, Place: st.Place, Cells: []string{strconv.Itoa(st.Score)}})
	}
	return out
}

// DefaultMove implements engine.State.
func (s *State) DefaultMove(seat int) engine.Move {
	l := s.Legal(seat)
	if len(l) == 0 {
		return nil
	}
	return l[len(l)-1]
}

// Forced implements engine.State: with the option forced, the draw of a
// seat whose hand is empty (hand sizes and the deck's size are public);
// else nil.
func (s *State) Forced(seat int) engine.Move {
	if !s.ForcedDraw || s.Over || seat != s.Turn || len(s.Hands[seat]) > 0 || len(s.Deck) == 0 {
		return nil
	}
	return Move{Kind: "draw", Text: "Draw a card"}
}

// Clone implements engine.State.
func (s *State) Clone() engine.State {
	c := *s
	c.Hands = make([][]string, len(s.Hands))
	for i, h := range s.Hands {
		c.Hands[i] = slices.Clone(h)
	}
	c.Deck = slices.Clone(s.Deck)
	c.Totals = slices.Clone(s.Totals)
	return &c
}
