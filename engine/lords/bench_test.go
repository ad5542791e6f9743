package lords

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"pbem/engine"
)

// playRandom plays one complete game with uniformly random listed moves and
// returns the number of moves.
func playRandom(tb testing.TB, g *Game, su engine.Setup, r *rand.Rand) int {
	st, err := g.New(su)
	if err != nil {
		tb.Fatal(err)
	}
	s := st.(*State)
	n := 0
	for s.Final == nil {
		randomStep(tb, s, r)
		n++
	}
	return n
}

// randomStep plays a random legal move of the seat s awaits, applies its
// events to s and returns them.
func randomStep(tb testing.TB, s *State, r *rand.Rand) []engine.Event {
	tb.Helper()
	seat := s.awaited()
	legal := s.legal(seat)
	evs, err := s.Decide(seat, &legal[r.IntN(len(legal))])
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range evs {
		s.Apply(e)
	}
	return evs
}

func BenchmarkRandomGame4(b *testing.B) {
	g := newGame(b)
	r := rand.New(rand.NewPCG(1, 2))
	moves := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		moves += playRandom(b, g, engine.Setup{Players: 4, Seed: seedOf(uint64(i))}, r)
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func BenchmarkDecideApply(b *testing.B) {
	g := newGame(b)
	r := rand.New(rand.NewPCG(3, 4))
	// A pool of mid-game states to decide from.
	var states []*State
	for i := 0; len(states) < 200; i++ {
		st, _ := g.New(engine.Setup{Players: 4, Seed: seedOf(uint64(i))})
		s := st.(*State)
		for k := 0; k < 10+i%60 && s.Final == nil; k++ {
			seat := s.awaited()
			legal := s.legal(seat)
			evs, _ := s.Decide(seat, &legal[r.IntN(len(legal))])
			for _, e := range evs {
				s.Apply(e)
			}
		}
		if s.Final == nil {
			states = append(states, s)
		}
	}
	moves := make([]engine.Move, len(states))
	for i, s := range states {
		l := s.Legal(s.awaited())
		moves[i] = l[r.IntN(len(l))]
	}
	// Each iteration decides and applies one move on a fresh copy of a
	// mid-game state; the copy is not timed. The median is reported too.
	var times []time.Duration
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := i % len(states)
		b.StopTimer()
		s := states[k].clone()
		b.StartTimer()
		t0 := time.Now()
		evs, err := s.Decide(s.awaited(), moves[k])
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range evs {
			s.Apply(e)
		}
		times = append(times, time.Since(t0))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns")
}
