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
	shared := rows[0].traitor == 0 && len(rows) > 1 && less(rows[0], rows[1]) == 0
	res.Summary = s.summary(e, defeated, w.seat, w.gold, w.daggers, shared)
	s.Res = res
}

// summary is the one-line account of the end, in the game's language with
// the players' names. A state without names and language (as every state
// written before they existed) keeps the first wording ("seat 2", "1
// daggers", in English), so that an old game replays to the very same
// result: that wording is a stored result's, not a translation, and stays
// out of the catalog.
func (s *state) summary(e GameEnded, defeated bool, winner, gold, daggers int, shared bool) string {
	p := texts.In(s.Lang)
	name := func(seat int) string { return playerName(s.Names, seat, p.Lang()) }
	daggerCount := p.T("count.dagger", daggers)
	if s.Names == nil && s.Lang == "" {
		name = func(seat int) string { return fmt.Sprintf("seat %d", seat) }
		daggerCount = fmt.Sprintf("%d daggers", daggers)
	}
	var t string
	switch {
	case e.Reason == "five_daggers":
		t = capitalize(p.T("result.five", name(e.Traitor), name(winner)))
	case defeated:
		t = p.T("result.fallen", name(winner), p.T("count.gold", gold), daggerCount, daggers)
	default:
		t = p.T("result.stands", name(winner), p.T("count.gold", gold), daggerCount, daggers)
	}
	if shared {
		t += p.T("result.shared")
	}
	return t
}
