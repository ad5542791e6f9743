package projections

import "math"

// Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", Boston
// University, 2013: http://www.glicko.net/glicko/glicko2.pdf), the
// rating method of docs/ratings.md. A rating is (R, RD, σ) on the
// Glicko scale; Glicko2Update runs one rating period of one player.

// Glicko-2's parameters as pbem uses them.
const (
	// GlickoStart, GlickoStartRD and GlickoStartVol rate a newcomer:
	// 1500, 350 and 0.06 (Glickman's suggestions).
	GlickoStart    = 1500.0
	GlickoStartRD  = 350.0
	GlickoStartVol = 0.06
	// GlickoTau constrains how fast the volatility changes: 0.5, the
	// value of Glickman's worked example (he suggests 0.3 to 1.2).
	GlickoTau = 0.5
	// glickoScale turns the Glicko scale into Glicko-2's (step 2).
	glickoScale = 173.7178
	// glickoEpsilon is the convergence tolerance of step 5.
	glickoEpsilon = 0.000001
)

// Glicko is a rating: R and RD on the Glicko scale, and the volatility σ.
type Glicko struct {
	R, RD, Vol float64
}

// NewGlicko is a newcomer's rating.
func NewGlicko() Glicko { return Glicko{R: GlickoStart, RD: GlickoStartRD, Vol: GlickoStartVol} }

// Outcome is one result of a rating period: against an opponent rated
// Opponent (before the period), a score of 1 (win), 0.5 (draw) or 0.
type Outcome struct {
	Opponent Glicko
	Score    float64
}

// Glicko2Update is p's rating after a rating period with outcomes
// (Glickman's steps 2 to 8); with none, only the RD grows (step 6).
func Glicko2Update(p Glicko, outcomes []Outcome) Glicko {
	mu := (p.R - GlickoStart) / glickoScale
	phi := p.RD / glickoScale
	if len(outcomes) == 0 {
		return Glicko{R: p.R, RD: math.Sqrt(phi*phi+p.Vol*p.Vol) * glickoScale, Vol: p.Vol}
	}
	var vInv, sum float64
	for _, o := range outcomes {
		muJ := (o.Opponent.R - GlickoStart) / glickoScale
		g := glickoG(o.Opponent.RD / glickoScale)
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += g * g * e * (1 - e)
		sum += g * (o.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	vol := glickoVolatility(phi, p.Vol, v, delta)
	phiStar := math.Sqrt(phi*phi + vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Glicko{R: muNew*glickoScale + GlickoStart, RD: phiNew * glickoScale, Vol: vol}
}

// glickoG is Glickman's g(φ).
func glickoG(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// glickoVolatility is step 5: the new volatility, by the Illinois
// algorithm.
func glickoVolatility(phi, sigma, v, delta float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(GlickoTau*GlickoTau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*GlickoTau) < 0 {
			k++
		}
		B = a - k*GlickoTau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > glickoEpsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
