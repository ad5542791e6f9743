package lords

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"pbem/engine"
)

// knowledge is what a seat has learnt from the history beyond its view:
// cards it saw another seat take, which must still be in that seat's hand
// or among its face-down followers, and the claims made in this round.
type knowledge struct {
	seat int
	// holds[q] are cards q took face-up from the recruits and has not
	// shown since.
	holds [][]int
	// claims counts the supporters each seat claimed since the last
	// round_scored.
	claims []int
}

// knowledgeOf reads the seat's redacted history. It only uses what the
// redacted events show: the cards taken face-up from the recruits and
// what later revealed them.
func knowledgeOf(d *deck, v *View, history []engine.Event) *knowledge {
	k := &knowledge{seat: v.Seat, holds: make([][]int, v.Players), claims: make([]int, v.Players)}
	forget := func(c int) {
		for q := range k.holds {
			k.holds[q] = remove(k.holds[q], c)
		}
	}
	for _, e := range history {
		switch e := e.(type) {
		case Recruited:
			if e.FaceUp && e.Card != 0 && e.Seat != v.Seat && e.Seat >= 0 && e.Seat < v.Players {
				k.holds[e.Seat] = append(k.holds[e.Seat], e.Card)
			}
		case Mustered:
			if e.Card != 0 && e.FaceUp {
				forget(e.Card)
			}
		case Swapped:
			if e.Target >= 0 && e.Target < v.Players && e.Taken == 0 {
				// A face-down follower of Target went to Seat unseen: it
				// may be one of the cards we placed with Target.
				k.holds[e.Target] = nil
			}
			forget(e.Card)
		case Discarded:
			forget(e.Discarded)
		case RoundScored:
			for _, a := range e.Armies {
				for _, c := range a.Cards {
					forget(c)
				}
			}
			clear(k.claims)
		case Claimed:
			if e.Seat >= 0 && e.Seat < v.Players {
				k.claims[e.Seat]++
			}
		}
	}
	// Whatever the view shows somewhere is not hidden in a hand.
	for _, c := range visibleCards(v) {
		forget(c)
	}
	for q := range k.holds {
		k.holds[q] = slices.DeleteFunc(k.holds[q], func(c int) bool { return !d.valid(c) })
	}
	return k
}

// visibleCards lists every card the view shows, wherever it is.
func visibleCards(v *View) []int {
	var out []int
	add := func(c CardView) {
		if !c.Hidden && c.Rank != 0 {
			out = append(out, c.Rank)
		}
	}
	for _, c := range v.Hand {
		add(c)
	}
	for _, sv := range v.Seats {
		for _, f := range sv.Army {
			add(f.CardView)
		}
		for _, c := range sv.Claimed {
			add(c)
		}
	}
	for _, r := range v.Recruits {
		add(r.CardView)
	}
	for _, c := range v.Supporters {
		add(c)
	}
	for _, c := range v.Discard {
		add(c)
	}
	return out
}

// sample builds a full state consistent with the view and the knowledge:
// what the view shows is where it shows it, the cards of k.holds are in
// their holder's hand or face-down followers, and every other unseen card
// is dealt at random among the unseen places (other hands, face-down
// followers, face-down recruits, the draw pile, in a random order). The
// state's PRNG (future reshuffles) is drawn from r.
func (k *knowledge) sample(d *deck, v *View, r *rand.Rand) (*State, error) {
	n, me := v.Players, v.Seat
	if len(v.Seats) != n || len(v.Recruits) != len(State{}.Recruits) {
		return nil, fmt.Errorf("lords bot: malformed view")
	}
	var key [32]byte
	for i := 0; i < len(key); i += 8 {
		x := r.Uint64()
		for j := range 8 {
			key[i+j] = byte(x >> (8 * j))
		}
	}
	s := &State{
		d: d, rng: *rand.NewChaCha8(key), lab: newLabeling(d, nil, ""),
		N: n, WithBruce: v.Bruce, Phase: v.Phase, Round: v.Round, Turn: v.Turn, Initiative: v.Initiative,
		Hands: make([][]int, n), Armies: make([][]Follower, n), Claimed: make([][]int, n),
		Draw: make([]int, v.DrawCount), Discard: ranks(v.Discard), Supporters: ranks(v.Supporters),
	}
	// slots[q] are the hidden places of seat q's own (hand, face-down
	// followers); other are the remaining hidden places.
	slots := make([][]*int, n)
	var other []*int
	for q, sv := range v.Seats {
		s.Claimed[q] = ranks(sv.Claimed)
		if q == me {
			s.Hands[q] = ranks(v.Hand)
		} else {
			s.Hands[q] = make([]int, sv.HandCount)
		}
		s.Armies[q] = make([]Follower, len(sv.Army))
		for i, f := range sv.Army {
			fl := Follower{Card: f.Rank, FaceUp: f.FaceUp, Kept: f.Kept, Known: 1 << uint(q)}
			if !f.FaceUp && !f.Hidden {
				fl.Known |= 1 << uint(me)
			}
			if f.Active != "" {
				fl.Power, _ = clanByName(f.Active)
			}
			s.Armies[q][i] = fl
		}
	}
	for q := range n {
		if q != me {
			for i := range s.Hands[q] {
				slots[q] = append(slots[q], &s.Hands[q][i])
			}
		}
		for i, f := range v.Seats[q].Army {
			if f.Hidden {
				slots[q] = append(slots[q], &s.Armies[q][i].Card)
			}
		}
	}
	for i, rv := range v.Recruits {
		s.Recruits[i] = Recruit{Card: rv.Rank, FaceUp: rv.FaceUp && !rv.Empty}
		if !rv.Empty && rv.Hidden {
			other = append(other, &s.Recruits[i].Card)
		}
	}
	for i := range s.Draw {
		other = append(other, &s.Draw[i])
	}
	// The unseen cards.
	seen := make([]bool, len(d.info))
	for _, c := range visibleCards(v) {
		if !d.valid(c) || seen[c] {
			return nil, fmt.Errorf("lords bot: the view shows card %d twice or unknown", c)
		}
		seen[c] = true
	}
	var pool []int
	for _, c := range d.all {
		if !seen[c] && (v.Bruce || d.clan(c) != Bruce) {
			pool = append(pool, c)
		}
	}
	total := len(other)
	for _, sl := range slots {
		total += len(sl)
	}
	if total != len(pool) {
		return nil, fmt.Errorf("lords bot: %d unseen cards for %d hidden places", len(pool), total)
	}
	inPool := make([]bool, len(d.info))
	for _, c := range pool {
		inPool[c] = true
	}
	// Known holdings first, in random places of their holder.
	for q, held := range k.holds {
		r.Shuffle(len(slots[q]), func(i, j int) { slots[q][i], slots[q][j] = slots[q][j], slots[q][i] })
		for _, c := range held {
			if len(slots[q]) == 0 || !inPool[c] {
				continue
			}
			*slots[q][0] = c
			slots[q] = slots[q][1:]
			inPool[c] = false
		}
		other = append(other, slots[q]...)
	}
	pool = slices.DeleteFunc(pool, func(c int) bool { return !inPool[c] })
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i, p := range other {
		*p = pool[i]
	}
	// Where the game stands.
	for _, sc := range v.LastRound {
		a := ArmyScore{Seat: sc.Seat, Cards: ranks(sc.Cards), Total: sc.Total, Doubled: sc.Doubled, Place: sc.Place, Claims: sc.Claims}
		for _, c := range a.Cards {
			a.Best = max(a.Best, c)
		}
		s.Order = append(s.Order, a)
	}
	if len(v.ToMove) != 1 || v.ToMove[0] != me {
		return nil, fmt.Errorf("lords bot: seat %d is not to move", me)
	}
	switch s.Phase {
	case PhasePlay:
		s.Step = (me - s.Initiative + n) % n
		if p := v.Pending; p != nil {
			pd := &Pending{Kind: p.Kind, Seat: p.Seat}
			if p.Card != nil {
				pd.Card = p.Card.Rank
			}
			switch p.Kind {
			case "activate":
				pd.Power = d.clan(pd.Card)
			case "muster":
				pd.Power = Makgill
			case "target":
				if m, ok := v.LegalMoves[0].(*Move); ok {
					pd.Power = m.power
				}
			}
			if p.Kind == "turn" {
				pd = nil
			}
			s.Pending = pd
		}
	case PhaseClaim:
		s.Claimant = slices.IndexFunc(s.Order, func(a ArmyScore) bool { return a.Seat == me })
		if s.Claimant < 0 {
			return nil, fmt.Errorf("lords bot: claimant %d not in the round's order", me)
		}
		s.ClaimsLeft = s.Order[s.Claimant].Claims - k.claims[me]
	default:
		return nil, fmt.Errorf("lords bot: no decision in phase %s", s.Phase)
	}
	if err := s.checkCards(); err != nil {
		return nil, fmt.Errorf("lords bot: sampled world: %w", err)
	}
	if err := s.checkRanges(); err != nil {
		return nil, fmt.Errorf("lords bot: sampled world: %w", err)
	}
	return s, nil
}

// ranks lists the ranks of visible cards.
func ranks(cs []CardView) []int {
	out := make([]int, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.Rank)
	}
	return out
}
