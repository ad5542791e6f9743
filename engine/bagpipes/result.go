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

// summaryWords is one language's result summaries: the five daggers rule
// (traitor, winner), Scotland fallen and standing (winner, counted gold,
// counted daggers, dagger number), a shared win, and the counted words.
type summaryWords struct {
	five, fallen, stands, shared string
	gold, dagger                 noun
}

// summaryVocab holds the summaries in the order of languages.
var summaryVocab = [...]summaryWords{
	{"%[1]s is the worst traitor (five daggers more); %[2]s wins",
		"Scotland has fallen; %[1]s wins with the fewest daggers (%[4]d) and %[2]s",
		"Scotland stands; %[1]s wins with %[2]s and %[3]s", " (shared)",
		noun{"gold", "gold"}, noun{"dagger", "daggers"}},
	{"%[1]s est le pire traître (cinq dagues de plus) ; %[2]s gagne",
		"L'Écosse est tombée ; %[1]s gagne avec le moins de dagues (%[4]d) et %[2]s",
		"L'Écosse tient bon ; %[1]s gagne avec %[2]s et %[3]s", " (ex æquo)",
		noun{"or", "ors"}, noun{"dague", "dagues"}},
	{"%[1]s è il peggior traditore (cinque pugnali in più); vince %[2]s",
		"La Scozia è caduta; vince %[1]s con meno pugnali (%[4]d) e %[2]s",
		"La Scozia resiste; vince %[1]s con %[2]s e %[3]s", " (a pari merito)",
		noun{"moneta d'oro", "monete d'oro"}, noun{"pugnale", "pugnali"}},
}

// summary is the one-line account of the end, in the game's language with
// the players' names. A state without names and language (as every state
// written before they existed) keeps the first wording ("seat 2", "1
// daggers"), so that an old game replays to the very same result.
func (s *state) summary(e GameEnded, defeated bool, winner, gold, daggers int, shared bool) string {
	li := langIndex(s.Lang)
	w := summaryVocab[li]
	name := func(seat int) string { return playerName(s.Names, seat, li) }
	if s.Names == nil && s.Lang == "" {
		name = func(seat int) string { return fmt.Sprintf("seat %d", seat) }
		w.dagger = noun{"daggers", "daggers"}
	}
	var t string
	switch {
	case e.Reason == "five_daggers":
		t = capitalize(fmt.Sprintf(w.five, name(e.Traitor), name(winner)))
	case defeated:
		t = fmt.Sprintf(w.fallen, name(winner), w.gold.count(gold), w.dagger.count(daggers), daggers)
	default:
		t = fmt.Sprintf(w.stands, name(winner), w.gold.count(gold), w.dagger.count(daggers), daggers)
	}
	if shared {
		t += w.shared
	}
	return t
}
