package lords

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"pbem/engine"
)

// Phase is what the game is waiting for.
type Phase string

// The phases of a game. Play and Claim await a seat's decision; the others
// are passed through within one Decide.
const (
	// PhasePlay: the five turns of a round (a turn action or a power's
	// decision, see Pending).
	PhasePlay Phase = "play"
	// PhaseClaim: supporters are claimed in the order of the round.
	PhaseClaim Phase = "claim"
	// PhaseBetween: the round is cleared; the next round is dealt, or the
	// game ends.
	PhaseBetween Phase = "between"
	// PhaseOver: the game has ended.
	PhaseOver Phase = "over"
)

// Follower is a card in an army.
type Follower struct {
	Card   int  `json:"card"`
	FaceUp bool `json:"face_up"`
	// Power is the end-of-round power activated on this card (Bruce,
	// Cochrane, MacDonnell; on a Scott, the copied one), else empty.
	Power Clan `json:"power,omitempty"`
	// Kept marks a MacDonnell carried over from the previous round: its
	// power is spent and it is discarded at the end of this round.
	Kept bool `json:"kept,omitempty"`
	// Known is the set of seats (bit i = seat i) that have seen this card
	// while face-down: whoever mustered it and whoever took it by a swap.
	Known uint32 `json:"known,omitempty"`
}

func (f Follower) knownBy(seat int) bool { return seat >= 0 && f.Known&(1<<uint(seat)) != 0 }

// Recruit is one of the five recruit places. Card 0 is an empty place (the
// piles ran out).
type Recruit struct {
	Card   int  `json:"card"`
	FaceUp bool `json:"face_up"`
}

// Pending is a decision inside a turn, after the turn's action.
type Pending struct {
	// Kind is "activate" (use or decline the power of the card just
	// mustered face-up), "target" (the target of a copied power) or
	// "muster" (Makgill's extra follower).
	Kind string `json:"kind"`
	Seat int    `json:"seat"`
	// Card is the follower whose power is resolved (for a Scott, the Scott).
	Card int `json:"card,omitempty"`
	// Power is the power being resolved: the card's clan, or the copied one.
	Power Clan `json:"power"`
}

// State is a game of Lords of Scotland. Its JSON form is complete (PRNG
// included) and round-trips through Game.DecodeState.
type State struct {
	d   *deck
	rng rand.ChaCha8
	lab *labeling // built from Names and Lang; shared by clones and moves

	N          int          `json:"players"`
	WithBruce  bool         `json:"bruce"`
	Phase      Phase        `json:"phase"`
	Round      int          `json:"round"`
	Turn       int          `json:"turn"` // 1..5; 6 once the fifth turn is over
	Step       int          `json:"step"` // 0..N-1: who acts in the turn, from the initiative
	Initiative int          `json:"initiative"`
	FlipDue    bool         `json:"flip_due,omitempty"`
	Pending    *Pending     `json:"pending,omitempty"`
	Draw       []int        `json:"draw"` // top card last
	Discard    []int        `json:"discard"`
	Hands      [][]int      `json:"hands"`
	Armies     [][]Follower `json:"armies"`
	Recruits   [5]Recruit   `json:"recruits"`
	Supporters []int        `json:"supporters"`
	Claimed    [][]int      `json:"claimed"`
	// Order is the last scored round, best first (seats without followers
	// last); during claims, Claimant indexes it and ClaimsLeft counts down.
	Order      []ArmyScore    `json:"order,omitempty"`
	Claimant   int            `json:"claimant"`
	ClaimsLeft int            `json:"claims_left"`
	Final      *engine.Result `json:"result,omitempty"`
	// Names are the players' names and Lang the game's language, for the
	// move labels and the result summary (public; absent in a game set up
	// without them).
	Names []string `json:"names,omitempty"`
	Lang  string   `json:"lang,omitempty"`
}

type stateJSON struct {
	RNG []byte `json:"rng"`
	*stateAlias
}

type stateAlias State

// MarshalJSON writes the state with its PRNG.
func (s *State) MarshalJSON() ([]byte, error) {
	rng, err := s.rng.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return json.Marshal(stateJSON{RNG: rng, stateAlias: (*stateAlias)(s)})
}

func decodeState(d *deck, data []byte) (*State, error) {
	s := &State{d: d}
	in := stateJSON{stateAlias: (*stateAlias)(s)}
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("lords: decode state: %w", err)
	}
	if err := s.rng.UnmarshalBinary(in.RNG); err != nil {
		return nil, fmt.Errorf("lords: decode state rng: %w", err)
	}
	if s.N < 2 || s.N > 5 || len(s.Hands) != s.N || len(s.Armies) != s.N || len(s.Claimed) != s.N {
		return nil, fmt.Errorf("lords: decode state: inconsistent player count")
	}
	for i := range s.N {
		if s.Hands[i] == nil {
			s.Hands[i] = []int{}
		}
		if s.Armies[i] == nil {
			s.Armies[i] = []Follower{}
		}
		if s.Claimed[i] == nil {
			s.Claimed[i] = []int{}
		}
	}
	if s.Draw == nil {
		s.Draw = []int{}
	}
	if s.Discard == nil {
		s.Discard = []int{}
	}
	if s.Supporters == nil {
		s.Supporters = []int{}
	}
	if err := s.checkCards(); err != nil {
		return nil, fmt.Errorf("lords: decode state: %w", err)
	}
	if err := s.checkRanges(); err != nil {
		return nil, fmt.Errorf("lords: decode state: %w", err)
	}
	s.lab = newLabeling(d, s.Names, s.Lang)
	return s, nil
}

// checkRanges checks the seat numbers and counters of a decoded state, so
// that a damaged state is an error rather than a panic later.
func (s *State) checkRanges() error {
	seat := func(q int) bool { return q >= 0 && q < s.N }
	switch {
	case !seat(s.Initiative) || s.Step < 0 || s.Step >= s.N || s.Turn < 1 || s.Turn > 6:
		return fmt.Errorf("bad turn counters")
	case s.Pending != nil && (!seat(s.Pending.Seat) || s.Phase != PhasePlay):
		return fmt.Errorf("bad pending decision")
	case s.Claimant < 0 || s.Claimant > len(s.Order) || len(s.Order) > s.N:
		return fmt.Errorf("bad claim order")
	}
	for _, a := range s.Order {
		if !seat(a.Seat) {
			return fmt.Errorf("bad claim order")
		}
	}
	if p := s.Pending; p != nil {
		if q, _ := s.findFollower(p.Card); q != p.Seat || (p.Kind != "activate" && p.Kind != "target" && p.Kind != "muster") {
			return fmt.Errorf("bad pending decision")
		}
	}
	switch s.Phase {
	case PhasePlay, PhaseClaim, PhaseBetween, PhaseOver:
	default:
		return fmt.Errorf("unknown phase %q", s.Phase)
	}
	return nil
}

// Players is the number of seats.
func (s *State) Players() int { return s.N }

// Result is nil until the game has ended.
func (s *State) Result() *engine.Result { return s.Final }

// ToMove lists the seat whose decision is awaited (none once over).
func (s *State) ToMove() []int {
	if seat := s.awaited(); seat >= 0 {
		return []int{seat}
	}
	return nil
}

// awaited is the seat whose decision is awaited, or -1.
func (s *State) awaited() int {
	switch s.Phase {
	case PhasePlay:
		if s.Pending != nil {
			return s.Pending.Seat
		}
		if s.Turn <= 5 && !s.FlipDue {
			return s.current()
		}
	case PhaseClaim:
		if s.claimsOpen() {
			return s.Order[s.Claimant].Seat
		}
	}
	return -1
}

// claimsOpen reports whether a claimant may still claim a supporter.
func (s *State) claimsOpen() bool {
	return s.Claimant < len(s.Order) && s.Order[s.Claimant].Claims > 0 && s.ClaimsLeft > 0 && len(s.Supporters) > 0
}

// current is the seat whose turn it is.
func (s *State) current() int { return (s.Initiative + s.Step) % s.N }

// Clone returns a deep copy.
func (s *State) Clone() engine.State { return s.clone() }

func (s *State) clone() *State {
	c := *s
	total := len(s.Draw) + len(s.Discard) + len(s.Supporters)
	nf := 0
	for i := range s.N {
		total += len(s.Hands[i]) + len(s.Claimed[i])
		nf += len(s.Armies[i])
	}
	// One backing array for all the card lists; each piece is capped so an
	// append reallocates instead of running into its neighbour.
	buf := make([]int, 0, total)
	take := func(src []int) []int {
		start := len(buf)
		buf = append(buf, src...)
		return buf[start:len(buf):len(buf)]
	}
	c.Draw = take(s.Draw)
	c.Discard = take(s.Discard)
	c.Supporters = take(s.Supporters)
	lists := make([][]int, 2*s.N)
	c.Hands, c.Claimed = lists[:s.N:s.N], lists[s.N:]
	fbuf := make([]Follower, 0, nf)
	c.Armies = make([][]Follower, s.N)
	for i := range s.N {
		c.Hands[i] = take(s.Hands[i])
		c.Claimed[i] = take(s.Claimed[i])
		start := len(fbuf)
		fbuf = append(fbuf, s.Armies[i]...)
		c.Armies[i] = fbuf[start:len(fbuf):len(fbuf)]
	}
	if s.Pending != nil {
		p := *s.Pending
		c.Pending = &p
	}
	if s.Order != nil {
		c.Order = append([]ArmyScore(nil), s.Order...) // its Cards are never changed in place
	}
	if s.Final != nil {
		r := *s.Final
		r.Ranking = append([]engine.Standing(nil), s.Final.Ranking...)
		c.Final = &r
	}
	return &c
}

// checkCards checks that every card of the game is in exactly one place.
func (s *State) checkCards() error {
	var c cardCount
	c.add(s, "draw", s.Draw)
	c.add(s, "discard", s.Discard)
	c.add(s, "supporters", s.Supporters)
	for _, rc := range s.Recruits {
		if rc.Card != 0 {
			c.one(s, "recruits", rc.Card)
		}
	}
	for i := range s.N {
		c.add(s, "hand", s.Hands[i])
		c.add(s, "claimed", s.Claimed[i])
		for _, f := range s.Armies[i] {
			c.one(s, "army", f.Card)
		}
	}
	if c.err != nil {
		return c.err
	}
	want := len(s.d.all)
	if !s.WithBruce {
		want -= len(s.d.bruce)
	}
	if c.n != want {
		return fmt.Errorf("%d cards in play, want %d", c.n, want)
	}
	return nil
}

// cardCount counts cards, each at most once (ranks are at most 1000).
type cardCount struct {
	seen [1024 / 64]uint64
	n    int
	err  error
}

func (c *cardCount) add(s *State, where string, cards []int) {
	for _, r := range cards {
		c.one(s, where, r)
	}
}

func (c *cardCount) one(s *State, where string, r int) {
	switch {
	case c.err != nil:
	case !s.d.valid(r):
		c.err = fmt.Errorf("%s holds unknown card %d", where, r)
	case c.seen[r/64]&(1<<(r%64)) != 0:
		c.err = fmt.Errorf("card %d twice (again in %s)", r, where)
	case s.d.clan(r) == Bruce && !s.WithBruce:
		c.err = fmt.Errorf("card %d (Bruce) in play without the bruce option", r)
	default:
		c.seen[r/64] |= 1 << (r % 64)
		c.n++
	}
}
