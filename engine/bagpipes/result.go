package bagpipes

import (
	"fmt"
	"sort"

	"pbem/engine"
)

// endGame ranks the players.
//
// Scotland not defeated: most gold first, ties to fewer daggers; a traitor
// (five daggers more than everyone else) cannot win and is ranked last.
// Scotland defeated: fewest daggers first, ties to more gold. The 2-player
// five-dagger rule at the start of a round: the traitor's opponent wins.
func (s *state) endGame(e GameEnded) {
	s.Phase = phOver
	s.Traitor = e.Traitor
	defeated := s.Defeats >= s.DefeatLimit
	type row struct{ seat, gold, daggers, traitor int }
	rows := make([]row, s.N)
	for i := range s.P {
		rows[i] = row{seat: i, gold: s.P[i].Gold, daggers: s.daggerTotal(i)}
		if i == e.Traitor && (!defeated || e.Reason == "five_daggers") {
			rows[i].traitor = 1
		}
	}
	less := func(a, b row) int {
		if a.traitor != b.traitor {
			return a.traitor - b.traitor
		}
		if defeated && e.Reason != "five_daggers" {
			if a.daggers != b.daggers {
				return a.daggers - b.daggers
			}
			return b.gold - a.gold
		}
		if a.gold != b.gold {
			return b.gold - a.gold
		}
		return a.daggers - b.daggers
	}
	sort.SliceStable(rows, func(i, j int) bool { return less(rows[i], rows[j]) < 0 })
	res := &engine.Result{Ranking: make([]engine.Standing, s.N)}
	for i, r := range rows {
		place := i + 1
		if i > 0 && less(rows[i-1], r) == 0 {
			place = res.Ranking[i-1].Place
		}
		res.Ranking[i] = engine.Standing{Seat: r.seat, Place: place, Score: r.gold,
			Detail: map[string]int{"daggers": r.daggers, "traitor": r.traitor}}
	}
	w := rows[0]
	switch {
	case e.Reason == "five_daggers":
		res.Summary = fmt.Sprintf("Seat %d is the worst traitor (five daggers more); seat %d wins", e.Traitor, w.seat)
	case defeated:
		res.Summary = fmt.Sprintf("Scotland has fallen; seat %d wins with the fewest daggers (%d) and %d gold", w.seat, w.daggers, w.gold)
	default:
		res.Summary = fmt.Sprintf("Scotland stands; seat %d wins with %d gold and %d daggers", w.seat, w.gold, w.daggers)
	}
	if rows[0].traitor == 0 && len(rows) > 1 && less(rows[0], rows[1]) == 0 {
		res.Summary += " (shared)"
	}
	s.Res = res
}
