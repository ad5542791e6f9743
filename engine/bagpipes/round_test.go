package bagpipes

import (
	"reflect"
	"testing"

	"pbem/engine"
)

func TestRoundSummaryTellsSidesBattleAndRewards(t *testing.T) {
	names := []string{"Ann", "Bob", "Cid"}
	round := []engine.Event{
		RoundEnded{Round: 1}, // the previous round's end: ignored
		RoundStarted{Round: 2, Name: "Edward I"},
		ChoiceMade{Seat: 0}, ChoiceMade{Seat: 1}, ChoiceMade{Seat: 2},
		Battle{Sides: []string{"scotland", "england", ""}, Scotland: 9, England: 12, Winner: "england", Defeats: 2, Deserters: []int{2}},
		Awards{Gold: []int{0, 3, 0}, Units: []int{1, 0, 0}},
		RoundEnded{Round: 2},
	}
	got := Game{}.RoundSummary(round, names, "fr")
	want := &engine.RoundSummary{Round: 2, Columns: []string{"Soutien", "Désertion", "Or gagné", "Unités gagnées"},
		Rows: []engine.RoundRow{
			{Seat: 0, Cells: []string{"Écosse", "non", "0", "1"}},
			{Seat: 1, Cells: []string{"Angleterre", "non", "3", "0"}},
			{Seat: 2, Cells: []string{"aucun", "oui", "0", "0"}},
		},
		Notes: []string{"Combat\u00a0: Écosse 9, Angleterre 12\u00a0: victoire de l'Angleterre.", "Victoires de l'Angleterre jusqu'ici\u00a0: 2."}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary\n got %+v\nwant %+v", got, want)
	}
	if s := (Game{}).RoundSummary(round[:5], names, "en"); s != nil {
		t.Errorf("a round not yet ended has a summary: %+v", s)
	}
}
