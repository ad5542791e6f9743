package projections_test

import (
	"math"
	"testing"

	"pbem/projections"
)

// TestGlicko2WorkedExample reproduces the example of Glickman's
// "Example of the Glicko-2 system" (2013), section "Example": a player
// rated 1500 (RD 200, σ 0.06) beats a 1400 (RD 30) and loses to a 1550
// (RD 100) and a 1700 (RD 300), with τ = 0.5: 1464.06, RD 151.52, σ
// 0.05999. The paper rounds its intermediate values to four places (μ' =
// -0.2069 gives 1464.06); computed in full the rating is 1464.0507 and
// the volatility 0.059996, so the figures are compared within 0.01 and
// 0.00001.
func TestGlicko2WorkedExample(t *testing.T) {
	t.Parallel()
	p := projections.Glicko{R: 1500, RD: 200, Vol: 0.06}
	got := projections.Glicko2Update(p, []projections.Outcome{
		{Opponent: projections.Glicko{R: 1400, RD: 30, Vol: 0.06}, Score: 1},
		{Opponent: projections.Glicko{R: 1550, RD: 100, Vol: 0.06}, Score: 0},
		{Opponent: projections.Glicko{R: 1700, RD: 300, Vol: 0.06}, Score: 0},
	})
	if math.Abs(got.R-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.005 || math.Abs(got.Vol-0.05999) > 0.00001 {
		t.Fatalf("got %.4f/%.4f/%.6f, want 1464.06/151.52/0.05999", got.R, got.RD, got.Vol)
	}
}

// TestGlicko2NoGames: a period without games only widens the RD
// (Glickman's step 6): sqrt(φ² + σ²) on the Glicko-2 scale.
func TestGlicko2NoGames(t *testing.T) {
	t.Parallel()
	p := projections.Glicko{R: 1600, RD: 50, Vol: 0.06}
	got := projections.Glicko2Update(p, nil)
	want := math.Sqrt(math.Pow(50/173.7178, 2)+0.06*0.06) * 173.7178
	if got.R != 1600 || math.Abs(got.RD-want) > 1e-9 || got.Vol != 0.06 {
		t.Fatalf("got %+v, want R 1600, RD %.4f", got, want)
	}
}
