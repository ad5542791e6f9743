package bagpipes

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"pbem/engine"
)

type balance struct {
	games, defeated int
	wins            []float64 // shared wins count fractionally
}

// simulate plays games of n players, every seat played by b.
func simulate(t testing.TB, n, games int, opts string, newBot func() testBot) balance {
	r := rand.New(rand.NewPCG(uint64(n), 99))
	out := balance{wins: make([]float64, n)}
	for i := range games {
		var seed engine.Seed
		seed[0], seed[1], seed[2] = byte(i), byte(i>>8), byte(n)
		st, err := Game{}.New(engine.Setup{Players: n, Options: json.RawMessage(opts), Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		b := newBot()
		for s.Res == nil {
			tm := s.ToMove()
			seat := tm[r.IntN(len(tm))]
			evs, err := s.Decide(seat, b(s, seat, s.legal(seat), r))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				s.Apply(e)
			}
		}
		out.games++
		if s.Defeats >= s.DefeatLimit {
			out.defeated++
		}
		var first []int
		for _, sd := range s.Res.Ranking {
			if sd.Place == 1 {
				first = append(first, sd.Seat)
			}
		}
		for _, seat := range first {
			out.wins[seat] += 1 / float64(len(first))
		}
	}
	return out
}

func (b balance) String() string {
	s := fmt.Sprintf("Scotland defeated %5.1f%%, first player wins %5.1f%%, max seat share %.2f×fair; wins by seat:",
		100*b.defeatRate(), 100*b.wins[0]/float64(b.games), b.maxShare())
	for _, w := range b.wins {
		s += fmt.Sprintf(" %5.1f%%", 100*w/float64(b.games))
	}
	return s
}

func (b balance) defeatRate() float64 { return float64(b.defeated) / float64(b.games) }

// maxShare is the highest seat's wins over its fair share (1/players).
func (b balance) maxShare() float64 {
	m := 0.0
	for _, w := range b.wins {
		m = max(m, w/float64(b.games)*float64(len(b.wins)))
	}
	return m
}

// balanceRows are the player counts and variants the default set aims at.
var balanceRows = []struct {
	n    int
	opts string
}{
	{2, `{}`}, {3, `{}`}, {4, `{}`}, {5, `{}`}, {6, `{}`},
	{3, `{"three_player":true}`}, {5, `{"stay_home":true}`}, {4, `{"long_game":true}`},
}

// balanceReport asks TestBalance for the report in doc.go. A flag of its
// own, not -v: go test -json (make test's tracks) runs tests verbose, and
// would play the report's games every time.
var balanceReport = flag.Bool("balance-report", false, "TestBalance plays 1,000 games a row and adds random bots (the report in doc.go)")

// TestBalance checks the default card set's aims between greedy bots, for
// every player count and the main variants: Scotland defeated in 25-50%
// of games and no seat winning more than 1.5 times its fair share. The
// default run plays 300 games a row and allows three standard errors of
// its sample (about 9 points on the defeat rate); -balance-report plays
// 1,000 games a row (the report in doc.go) and adds random bots to it.
func TestBalance(t *testing.T) {
	games := 300
	switch {
	case *balanceReport:
		games = 1000
	case testing.Short():
		games = 100
	}
	for _, row := range balanceRows {
		name := fmt.Sprintf("%d players %s", row.n, row.opts)
		if *balanceReport {
			t.Logf("%-26s random bots: %v", name, simulate(t, row.n, games/2, row.opts, func() testBot { return randomBot }))
		}
		gb := simulate(t, row.n, games, row.opts, newGreedyBot)
		t.Logf("%-26s greedy bots: %v", name, gb)
		// Three standard errors of a rate near the bounds.
		margin := 3 * math.Sqrt(0.5*0.5/float64(games))
		if d := gb.defeatRate(); d < 0.25-margin || d > 0.50+margin {
			t.Errorf("%s: Scotland defeated in %.1f%% of greedy games, want 25-50%% (±%.1f)", name, 100*d, 100*margin)
		}
		fair := 1 / float64(row.n)
		shareMargin := 3 * math.Sqrt(1.5*fair*(1-1.5*fair)/float64(games)) / fair
		if m := gb.maxShare(); m > 1.5+shareMargin {
			t.Errorf("%s: a seat wins %.2f times its fair share, want at most 1.5 (+%.2f)", name, m, shareMargin)
		}
	}
}
