package bagpipes

import "testing"

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
