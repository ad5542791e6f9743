package lords

import (
	"reflect"
	"testing"

	"pbem/engine"
)

func TestRoundSummaryTellsArmiesAndClaims(t *testing.T) {
	g, err := New()
	if err != nil {
		t.Fatal(err)
	}
	n := func(rank int) string { return g.d.cardName(rank, "it") }
	names := []string{"Ann", "Bob", "Cid"}
	round := []engine.Event{
		RoundEnded{Round: 1, Initiative: 0}, // the previous round's end: ignored
		Claimed{Seat: 2, Card: 30},          // before the round's scoring: ignored
		RoundScored{Round: 2, Armies: []ArmyScore{
			{Seat: 1, Cards: []int{10, 11}, Total: 26, Doubled: true, Place: 1, Claims: 2},
			{Seat: 0, Cards: []int{40}, Total: 9, Place: 2, Claims: 1},
			{Seat: 2, Cards: []int{}, Place: 3},
		}},
		Claimed{Seat: 1, Card: 20},
		Claimed{Seat: 1, Card: 21},
		Claimed{Seat: 0, Card: 22},
		RoundEnded{Round: 2, Initiative: 1},
	}
	got := g.RoundSummary(round, names, "it")
	want := &engine.RoundSummary{Round: 2, Columns: []string{"Esercito", "Totale", "Raddoppiato", "Posizione", "Supporter rivendicati"},
		Rows: []engine.RoundRow{
			{Seat: 1, Cells: []string{n(10) + ", " + n(11), "26", "sì", "1", n(20) + ", " + n(21)}},
			{Seat: 0, Cells: []string{n(40), "9", "no", "2", n(22)}},
			{Seat: 2, Cells: []string{"nessuno", "0", "no", "3", "nessuno"}},
		},
		Notes: []string{"Bob prende l'iniziativa."}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("summary\n got %+v\nwant %+v", got, want)
	}
	if s := g.RoundSummary(round[:6], names, "en"); s != nil {
		t.Errorf("a round not yet ended has a summary: %+v", s)
	}
}
