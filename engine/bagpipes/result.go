package bagpipes

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

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

// Standings implements engine.State: the result told by what decided it.
// Scotland fallen: the fewest daggers ranked the seats, then the gold;
// Scotland held: the gold, then the daggers, a traitor last; the
// 2-player five-dagger rule: the traitor lost at once. It reads the
// final state (defeats, rounds, traitor) and the recorded ranking, so
// that a game recorded before it is told the same way.
func (s *state) Standings() *engine.Standings {
	if s.Res == nil {
		return nil
	}
	p := texts.In(s.Lang)
	name := func(seat int) string { return playerName(s.Names, seat, p.Lang()) }
	fallen := s.Defeats >= s.DefeatLimit
	five := !fallen && s.N == 2 && s.Round < s.Rounds && s.Traitor >= 0
	gold := func(st engine.Standing) string { return strconv.Itoa(st.Score) }
	daggers := func(st engine.Standing) string { return strconv.Itoa(st.Detail["daggers"]) }
	out := &engine.Standings{Columns: []string{p.T("standings.gold"), p.T("standings.daggers")}}
	cells := func(st engine.Standing) []string { return []string{gold(st), daggers(st)} }
	var reason string
	var figure func(st engine.Standing) string
	switch {
	case five:
		reason = p.T("standings.five", name(s.Traitor), name(1-s.Traitor))
	case fallen:
		reason = p.T("standings.fallen", s.Defeats)
		out.Columns = []string{p.T("standings.daggers"), p.T("standings.gold")}
		cells = func(st engine.Standing) []string { return []string{daggers(st), gold(st)} }
		figure = func(st engine.Standing) string { return p.T("count.dagger", st.Detail["daggers"]) }
	default:
		reason = p.T("standings.held")
		figure = func(st engine.Standing) string { return p.T("count.gold", st.Score) }
		if s.Traitor >= 0 {
			reason += " " + p.T("standings.traitor", name(s.Traitor))
		}
	}
	var winners []string
	for _, st := range s.Res.Ranking {
		out.Rows = append(out.Rows, engine.StandingRow{Seat: st.Seat, Place: st.Place, Cells: cells(st)})
		if st.Place == 1 {
			winners = append(winners, name(st.Seat))
		}
	}
	switch {
	case figure == nil || len(winners) == 0:
		out.Summary = reason + " " + p.T("standings.wins.plain", strings.Join(winners, ", "))
	case len(winners) > 1:
		out.Summary = reason + " " + p.T("standings.wins.shared", strings.Join(winners, ", "), figure(s.Res.Ranking[0]))
	default:
		out.Summary = reason + " " + p.T("standings.wins", winners[0], figure(s.Res.Ranking[0]))
	}
	return out
}
