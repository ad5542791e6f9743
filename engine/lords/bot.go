package lords

import (
	"fmt"
	"math"
	"math/rand/v2"

	"pbem/engine"
	"pbem/engine/bot"
)

// The bots of Lords of Scotland (see package bot). They decide from a View
// and the seat's redacted history only; the strong bot's worlds are built
// from them by sample (botworld.go).

// strongBudget is the strong bot's search per decision: a fixed number of
// descents, so that a decision does not depend on the machine.
var strongBudget = bot.Budget{Worlds: 8, Iterations: 640}

// ChooseBot is Bot for a seat's view given as an engine.SeatView (View or
// *View); see bot.Choose.
func (g *Game) ChooseBot(level bot.Level, view engine.SeatView, history engine.SeatHistory, key engine.BotKey, version int) (engine.Move, error) {
	v, err := bot.ViewAs[View](Name, view, history)
	if err != nil {
		return nil, err
	}
	return g.Bot(level, v, history, key, version)
}

// Bot is the move of a bot of the given level for the seat of v, one of
// v.LegalMoves verbatim. v is State.View(seat) and history the game's
// events as that seat sees them (engine.Redacted); the game's bot key and
// version key the bot's PRNG (bot.NewRand), so the same inputs give the
// same move.
//
//   - easy: a uniformly random legal move;
//   - normal: the best legal move by a one-step heuristic (botheuristic.go);
//   - strong: bot.Search over worlds sampled from v and history, with
//     playouts by the heuristic up to the end of the round.
//
// Errors: bad_options for an unknown level or a view of another game;
// not_your_turn when v lists no legal move.
func (g *Game) Bot(level bot.Level, v View, history engine.SeatHistory, key engine.BotKey, version int) (engine.Move, error) {
	if history.Seat() != v.Seat {
		return nil, bot.ErrWrongView(Name, v)
	}
	if v.Game != Name || v.Seat < 0 || v.Seat >= v.Players {
		return nil, bot.ErrWrongView(Name, v)
	}
	if len(v.LegalMoves) == 0 {
		return nil, engine.Errorf(engine.CodeNotYourTurn, "seat %d has no decision to make", v.Seat)
	}
	moves := make([]*Move, len(v.LegalMoves))
	for i, m := range v.LegalMoves {
		mv, ok := m.(*Move)
		if !ok || mv == nil {
			return nil, bot.ErrWrongView(Name, v)
		}
		moves[i] = mv
	}
	r := bot.NewRand(key, version, v.Seat)
	switch level {
	case bot.Easy:
		return v.LegalMoves[r.IntN(len(moves))], nil
	case bot.Normal, bot.Strong:
	default:
		return nil, engine.Errorf(engine.CodeBadOptions, "unknown bot level %d", int(level))
	}
	if len(moves) == 1 {
		return v.LegalMoves[0], nil
	}
	k := knowledgeOf(g.d, &v, history.Events())
	if level == bot.Normal {
		w, err := k.sample(g.d, &v, r)
		if err != nil {
			return nil, err
		}
		ms := w.legal(v.Seat)
		k := indexOf(moves, &ms[w.bestMove(v.Seat, ms, r)])
		if k < 0 {
			return nil, fmt.Errorf("lords bot: a sampled world lists other moves than the view")
		}
		return v.LegalMoves[k], nil
	}
	p := bot.Problem{
		Seat:  v.Seat,
		Moves: len(moves),
		Sample: func(r *rand.Rand) (engine.State, error) {
			return k.sample(g.d, &v, r)
		},
		Index: func(m engine.Move) int {
			mv, _ := m.(*Move)
			return indexOf(moves, mv)
		},
		Policy: func(st engine.State, seat int, legal []engine.Move, r *rand.Rand) int {
			if r.IntN(5) == 0 {
				return r.IntN(len(legal))
			}
			s := st.(*State)
			ms := make([]Move, len(legal))
			for i, m := range legal {
				ms[i] = *m.(*Move)
			}
			return s.bestMove(seat, ms, r)
		},
		Cutoff: func(st engine.State, steps int) bool {
			return st.(*State).Round != v.Round || steps > 400
		},
		Eval: func(st engine.State, out []float64) { st.(*State).botEval(out) },
	}
	i, err := bot.Search(p, strongBudget, r)
	if err != nil {
		return nil, err
	}
	return v.LegalMoves[i], nil
}

// indexOf is the position of m among moves (the same decision), or -1.
func indexOf(moves []*Move, m *Move) int {
	if m == nil {
		return -1
	}
	for i, o := range moves {
		if o.same(m) {
			return i
		}
	}
	return -1
}

// botEval scores a state for the search: a finished game is 1 for its
// winners and 0 for the others; otherwise each seat's supporter points
// and a little for the strength in its hand (next round's armies) are
// compared with the best other seat's, through a logistic curve.
func (s *State) botEval(out []float64) {
	if s.Final != nil {
		bot.ScoreFinished(s.Final, out)
		return
	}
	val := make([]float64, s.N)
	for q := range s.N {
		val[q] = float64(s.points(q))
		for _, c := range s.Hands[q] {
			val[q] += 0.15 * float64(s.d.strength(c))
		}
	}
	for q := range s.N {
		best := math.Inf(-1)
		for o := range s.N {
			if o != q {
				best = max(best, val[o])
			}
		}
		out[q] = 1 / (1 + math.Exp(-(val[q]-best)/6))
	}
}
