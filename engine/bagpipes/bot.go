package bagpipes

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"pbem/engine"
	"pbem/engine/bot"
)

// The bots of Swords and Bagpipes (see package bot). They decide from a
// View and the seat's redacted history only; the worlds of the normal and
// strong bots are sampled from them (botworld.go).

// strongBudget is the strong bot's search per decision: a fixed number of
// descents, so that a decision does not depend on the machine.
var strongBudget = bot.Budget{Worlds: 8, Iterations: 480}

// ChooseBot is Bot for a seat's view given as an engine.SeatView (View or
// *View); see bot.Choose.
func (g Game) ChooseBot(level bot.Level, view engine.SeatView, history engine.SeatHistory, key engine.BotKey, version int) (engine.Move, error) {
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
//   - normal: the greedy player's move (botgreedy.go) in a world sampled
//     from v and history, of which it reads only the public holdings and
//     its own; its mind about England is drawn once per round;
//   - strong: bot.Search over worlds sampled from v and history, with
//     greedy playouts to the end of the round.
//
// The bots know only the default card set: in a game with a custom set
// the normal and strong bots play as the easy one. Errors: bad_options
// for an unknown level or a view of another game; not_your_turn when v
// lists no legal move.
func (g Game) Bot(level bot.Level, v View, history engine.SeatHistory, key engine.BotKey, version int) (engine.Move, error) {
	if history.Seat() != v.Seat {
		return nil, bot.ErrWrongView(Name, v)
	}
	if v.Game != Name || v.Seat < 0 || v.Seat >= len(v.Players) {
		return nil, bot.ErrWrongView(Name, v)
	}
	if len(v.LegalMoves) == 0 {
		return nil, engine.Errorf(engine.CodeNotYourTurn, "seat %d has no decision to make", v.Seat)
	}
	r := bot.NewRand(key, version, v.Seat)
	switch level {
	case bot.Easy:
		return v.LegalMoves[r.IntN(len(v.LegalMoves))], nil
	case bot.Normal, bot.Strong:
	default:
		return nil, engine.Errorf(engine.CodeBadOptions, "unknown bot level %d", int(level))
	}
	if len(v.LegalMoves) == 1 {
		return v.LegalMoves[0], nil
	}
	k := knowledgeOf(&v, history.Events())
	if level == bot.Normal {
		w, err := k.sample(&v, r)
		if errors.Is(err, errCustomCards) {
			return v.LegalMoves[r.IntN(len(v.LegalMoves))], nil
		}
		if err != nil {
			return nil, err
		}
		// The greedy player's mind about England is drawn once per round.
		u := bot.NewRand(key, 0, v.Seat, uint64(v.Round)).Float64()
		m := greedyMove(w, v.Seat, w.legal(v.Seat), r, u)
		i := indexOfMove(v.LegalMoves, m)
		if i < 0 {
			return nil, fmt.Errorf("bagpipes bot: a sampled world lists other moves than the view")
		}
		return v.LegalMoves[i], nil
	}
	if _, err := k.sample(&v, r); errors.Is(err, errCustomCards) {
		return v.LegalMoves[r.IntN(len(v.LegalMoves))], nil
	}
	p := bot.Problem{
		Seat:  v.Seat,
		Moves: len(v.LegalMoves),
		Sample: func(r *rand.Rand) (engine.State, error) {
			return k.sample(&v, r)
		},
		Index: func(m engine.Move) int {
			mv, _ := m.(Move)
			return indexOfMove(v.LegalMoves, mv)
		},
		Policy: func(st engine.State, seat int, legal []engine.Move, r *rand.Rand) int {
			s := st.(*state)
			ms := make([]Move, len(legal))
			for i, m := range legal {
				ms[i] = m.(Move)
			}
			return indexOfMove(ms, greedyMove(s, seat, ms, r, r.Float64()))
		},
		Cutoff: func(st engine.State, _ int) bool { return st.(*state).Round != v.Round },
		Eval:   func(st engine.State, out []float64) { st.(*state).botEval(out) },
	}
	i, err := bot.Search(p, strongBudget, r)
	if err != nil {
		return nil, err
	}
	return v.LegalMoves[i], nil
}

// indexOfMove is the position of m among moves (the same decision, labels
// aside), or -1.
func indexOfMove(moves []Move, m Move) int {
	for i, o := range moves {
		if o.Type == m.Type && o.Action == m.Action && o.Card == m.Card && o.Units == m.Units &&
			o.To == m.To && o.Target == m.Target && o.Side == m.Side && o.Dagger == m.Dagger {
			return i
		}
	}
	return -1
}

// botEval scores a state for the search: a finished game is 1 for its
// winners and 0 for the others; an unfinished one (a playout cut short)
// compares each seat's gold, castle units and bagpipe cards (at the greedy
// player's prices) less its daggers (dearer as defeats pile up) with the
// best other seat's, through a logistic curve.
func (s *state) botEval(out []float64) {
	if s.Res != nil {
		bot.ScoreFinished(s.Res, out)
		return
	}
	lambda := 0.3 + 0.9*float64(s.Defeats)/float64(max(s.DefeatLimit-1, 1))
	val := make([]float64, s.N)
	for q := range s.N {
		val[q] = float64(s.P[q].Gold) + greedyUnit*float64(s.P[q].Castle) + greedyBagpipe*float64(len(s.P[q].Hand)) - lambda*float64(s.daggerTotal(q))
	}
	for q := range s.N {
		best := math.Inf(-1)
		for o := range s.N {
			if o != q {
				best = max(best, val[o])
			}
		}
		out[q] = 1 / (1 + math.Exp(-(val[q]-best)/3))
	}
}
