package bagpipes

import (
	"math/rand/v2"
	"testing"

	"pbem/engine"
)

// playRandom plays one complete game with uniformly random legal moves.
func playRandom(tb testing.TB, su engine.Setup, r *rand.Rand) *state {
	st, err := Game{}.New(su)
	if err != nil {
		tb.Fatal(err)
	}
	s := st.(*state)
	for s.Res == nil {
		tm := s.ToMove()
		seat := tm[r.IntN(len(tm))]
		ms := s.legal(seat)
		evs, err := s.Decide(seat, ms[r.IntN(len(ms))])
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range evs {
			s.Apply(e)
		}
	}
	return s
}

// BenchmarkRandomGame4 plays complete random 4-player games.
func BenchmarkRandomGame4(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	i := 0
	for b.Loop() {
		i++
		var seed engine.Seed
		seed[0], seed[1] = byte(i), byte(i>>8)
		playRandom(b, engine.Setup{Players: 4, Seed: seed}, r)
	}
}
