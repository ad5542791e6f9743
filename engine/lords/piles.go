package lords

import "math/rand/v2"

// shuffle shuffles cards in place with the game's PRNG.
func shuffle(rng *rand.ChaCha8, cards []int) {
	for i := len(cards) - 1; i > 0; i-- {
		j := int(boundedRand(rng, uint64(i+1)))
		cards[i], cards[j] = cards[j], cards[i]
	}
}

// boundedRand returns a uniform number in [0, n) (Lemire's method).
func boundedRand(rng *rand.ChaCha8, n uint64) uint64 {
	for {
		x := rng.Uint64()
		hi, lo := mulHiLo(x, n)
		if lo >= n || lo >= (-n)%n {
			return hi
		}
	}
}

func mulHiLo(a, b uint64) (hi, lo uint64) {
	const mask32 = 1<<32 - 1
	a0, a1 := a&mask32, a>>32
	b0, b1 := b&mask32, b>>32
	w0 := a0 * b0
	t := a1*b0 + w0>>32
	w1, w2 := t&mask32, t>>32
	w1 += a0 * b1
	return a1*b1 + w2 + w1>>32, a * b
}

// draw takes the top card of the draw pile, first shuffling the discards
// into a new draw pile if it is empty. It returns 0 when both are empty.
func (s *State) draw() (card int, reshuffled bool) {
	if len(s.Draw) == 0 {
		if len(s.Discard) == 0 {
			return 0, false
		}
		s.Draw = append(s.Draw[:0], s.Discard...)
		s.Discard = s.Discard[:0]
		shuffle(&s.rng, s.Draw)
		reshuffled = true
	}
	card = s.Draw[len(s.Draw)-1]
	s.Draw = s.Draw[:len(s.Draw)-1]
	return card, reshuffled
}

// peekDraw tells what draw would give, without changing the state.
func (s *State) peekDraw() (card int, reshuffled bool) {
	if len(s.Draw) > 0 {
		return s.Draw[len(s.Draw)-1], false
	}
	if len(s.Discard) == 0 {
		return 0, false
	}
	rng := s.rng
	pile := append([]int(nil), s.Discard...)
	shuffle(&rng, pile)
	return pile[len(pile)-1], true
}

// canDraw reports whether a card can be drawn.
func (s *State) canDraw() bool { return len(s.Draw) > 0 || len(s.Discard) > 0 }

// maxRedraws bounds the redrawing of same-strength supporters; it is only
// reached when the piles hold almost nothing but one strength.
const maxRedraws = 50

// dealRound lays out five face-down recruits and one supporter per player,
// discarding and redrawing the supporters while they all show the same
// strength (ruling 15).
func (s *State) dealRound() (supporters []int, redrawn [][]int, reshuffled bool) {
	for i := range s.Recruits {
		c, r := s.draw()
		reshuffled = reshuffled || r
		s.Recruits[i] = Recruit{Card: c}
	}
	for attempt := 0; ; attempt++ {
		s.Supporters = s.Supporters[:0]
		for range s.N {
			c, r := s.draw()
			reshuffled = reshuffled || r
			if c != 0 {
				s.Supporters = append(s.Supporters, c)
			}
		}
		if !s.sameStrength(s.Supporters) || attempt >= maxRedraws || !s.otherStrengthLeft(s.Supporters) {
			break
		}
		redrawn = append(redrawn, append([]int(nil), s.Supporters...))
		s.Discard = append(s.Discard, s.Supporters...)
	}
	return append([]int(nil), s.Supporters...), redrawn, reshuffled
}

func (s *State) sameStrength(cards []int) bool {
	if len(cards) < 2 {
		return false
	}
	for _, c := range cards[1:] {
		if s.d.strength(c) != s.d.strength(cards[0]) {
			return false
		}
	}
	return true
}

// otherStrengthLeft reports whether the piles hold a card of another
// strength than cards[0], so that redrawing can end.
func (s *State) otherStrengthLeft(cards []int) bool {
	str := s.d.strength(cards[0])
	for _, pile := range [][]int{s.Draw, s.Discard} {
		for _, c := range pile {
			if s.d.strength(c) != str {
				return true
			}
		}
	}
	return false
}
