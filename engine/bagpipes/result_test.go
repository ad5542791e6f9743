package bagpipes

import (
	"slices"
	"testing"

	"pbem/engine"
)

func TestSummaryLanguagesAndNames(t *testing.T) {
	names := []string{"Ann", "Bob", "Cid"}
	five := GameEnded{Reason: "five_daggers", Traitor: 2}
	end := GameEnded{Traitor: -1}
	for _, c := range []struct {
		names         []string
		lang          string
		e             GameEnded
		defeated      bool
		gold, daggers int
		shared        bool
		want          string
	}{
		{nil, "", end, false, 7, 1, false, "Scotland stands; seat 1 wins with 7 gold and 1 daggers"},
		{nil, "", five, false, 7, 1, false, "Seat 2 is the worst traitor (five daggers more); seat 1 wins"},
		{names, "", end, false, 7, 1, true, "Scotland stands; Bob wins with 7 gold and 1 dagger (shared)"},
		{nil, "en", end, true, 1, 4, false, "Scotland has fallen; Player 2 wins with the fewest daggers (4) and 1 gold"},
		{names, "fr", end, false, 7, 2, false, "L'Écosse tient bon\u202f; Bob gagne avec 7 pièces d'or et 2 dagues"},
		{names, "fr", end, true, 1, 0, true, "L'Écosse est tombée\u202f; Bob gagne avec le moins de dagues (0) et 1 pièce d'or (ex æquo)"},
		{names, "fr", five, false, 0, 0, false, "Cid est le pire traître (cinq dagues de plus)\u202f; Bob gagne"},
		{names, "it", end, false, 1, 1, false, "La Scozia resiste; vince Bob con 1 moneta d'oro e 1 pugnale"},
		{nil, "it", end, true, 3, 2, false, "La Scozia è caduta; vince Giocatore 2 con meno pugnali (2) e 3 monete d'oro"},
		{names, "it", five, false, 0, 0, false, "Cid è il peggior traditore (cinque pugnali in più); vince Bob"},
	} {
		s := &state{Names: c.names, Lang: c.lang}
		if got := s.summary(c.e, c.defeated, 1, c.gold, c.daggers, c.shared); got != c.want {
			t.Errorf("%q %v summary:\n got %q\nwant %q", c.lang, c.names, got, c.want)
		}
	}
}

// TestStandingsSayWhatDecided: the result a player reads names what
// ranked the seats (a user trial read "Giulia wins with 23 points" above
// a table of gold, 15 above 22, when the fewest daggers had decided).
// Scotland fallen: daggers first, then gold; Scotland held: gold first,
// a traitor last and named; in every language.
func TestStandingsSayWhatDecided(t *testing.T) {
	finish := func(lang string, defeats int, gold, daggers []int) *state {
		t.Helper()
		st, err := Game{}.New(engine.Setup{Players: 3, Seed: engine.Seed{3}, Names: []string{"Alice", "Bernard", "Giulia"}, Language: lang})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*state)
		one := slices.IndexFunc(s.Set.Daggers, func(d DaggerCard) bool { return d.Daggers == 1 })
		for i := range s.P {
			s.P[i].Gold, s.P[i].Virtual, s.P[i].Daggers = gold[i], daggers[i]/2, nil
			if daggers[i]%2 == 1 {
				s.P[i].Daggers = []int{one}
			}
		}
		s.Round, s.Defeats = s.Rounds, defeats
		s.endGame(GameEnded{Reason: "rounds", Traitor: s.traitor()})
		return s
	}
	for _, c := range []struct {
		lang          string
		defeats       int
		gold, daggers []int
		summary       string
		columns       []string
		order         []int
		cells         []string
	}{
		{"en", 4, []int{15, 22, 23}, []int{5, 6, 4},
			"Scotland fell after 4 defeats: the fewest daggers win, then the most gold. Giulia wins with 4 daggers.",
			[]string{"Daggers", "Gold"}, []int{2, 0, 1}, []string{"4", "23"}},
		{"fr", 4, []int{15, 22, 23}, []int{5, 6, 4},
			"L'Écosse est tombée après 4 défaites\u00a0: le moins de dagues l'emporte, puis le plus d'or. Giulia gagne avec 4 dagues.",
			[]string{"Dagues", "Or"}, []int{2, 0, 1}, []string{"4", "23"}},
		{"it", 2, []int{15, 22, 23}, []int{5, 6, 4},
			"La Scozia ha resistito: vince chi ha più oro, poi meno pugnali. Vince Giulia con 23 monete d'oro.",
			[]string{"Oro", "Pugnali"}, []int{2, 1, 0}, []string{"23", "4"}},
		{"en", 0, []int{15, 22, 30}, []int{1, 2, 9},
			"Scotland held: the most gold wins, then the fewest daggers. Giulia has five daggers more than everyone else: a traitor, who cannot win and ranks last. Bernard wins with 22 gold.",
			[]string{"Gold", "Daggers"}, []int{1, 0, 2}, []string{"22", "2"}},
		{"en", 4, []int{15, 22, 23}, []int{4, 6, 4},
			"Scotland fell after 4 defeats: the fewest daggers win, then the most gold. Giulia wins with 4 daggers.",
			[]string{"Daggers", "Gold"}, []int{2, 0, 1}, []string{"4", "23"}},
	} {
		s := finish(c.lang, c.defeats, c.gold, c.daggers)
		got := s.Standings()
		if got == nil {
			t.Fatalf("%s: no standings", c.lang)
		}
		if got.Summary != c.summary || !slices.Equal(got.Columns, c.columns) {
			t.Errorf("%s: standings\n got %q %q\nwant %q %q", c.lang, got.Summary, got.Columns, c.summary, c.columns)
		}
		var order []int
		for _, r := range got.Rows {
			order = append(order, r.Seat)
		}
		if !slices.Equal(order, c.order) || !slices.Equal(got.Rows[0].Cells, c.cells) {
			t.Errorf("%s: rows %+v, want seats %v, first %v", c.lang, got.Rows, c.order, c.cells)
		}
		for i, r := range s.Res.Ranking { // the table ranks as the recorded result
			if r.Seat != got.Rows[i].Seat || r.Place != got.Rows[i].Place {
				t.Errorf("%s: row %d is %+v, the result's %+v", c.lang, i, got.Rows[i], r)
			}
		}
	}
}
