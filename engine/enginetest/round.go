package enginetest

import (
	"fmt"
	"reflect"

	"pbem/engine"
)

// checkRoundSummary checks Game.RoundSummary at a round's end: round holds
// the events from the previous round's end (included, to be ignored) to
// this round's end. In every language the summary exists, has a row per
// seat it tells (each seat once, one cell per column), and is public: the
// summary built from any seat's redacted events equals the spectator's.
func checkRoundSummary(g engine.Game, round []engine.Event, names []string) error {
	redacted := func(seat int) []engine.Event {
		out := make([]engine.Event, len(round))
		for i, e := range round {
			out[i] = g.Redact(e, seat)
		}
		return out
	}
	public := redacted(engine.Spectator)
	// Each seat's events are redacted once, for the three languages.
	seats := make([][]engine.Event, len(names))
	for seat := range names {
		seats[seat] = redacted(seat)
	}
	for _, lang := range []string{"en", "fr", "it"} {
		want := g.RoundSummary(public, names, lang)
		if want == nil {
			return fmt.Errorf("round end %s: no round summary (%s)", round[len(round)-1].EventType(), lang)
		}
		if want.Round < 1 || len(want.Columns) == 0 || len(want.Rows) == 0 || len(want.Rows) > len(names) {
			return fmt.Errorf("round summary (%s): round %d, %d columns, %d rows for %d seats", lang, want.Round, len(want.Columns), len(want.Rows), len(names))
		}
		seen := map[int]bool{}
		for _, r := range want.Rows {
			if r.Seat < 0 || r.Seat >= len(names) || seen[r.Seat] || len(r.Cells) != len(want.Columns) {
				return fmt.Errorf("round summary (%s): bad row %+v for columns %q", lang, r, want.Columns)
			}
			seen[r.Seat] = true
		}
		for seat := range names {
			if got := g.RoundSummary(seats[seat], names, lang); !reflect.DeepEqual(got, want) {
				return fmt.Errorf("round summary (%s) for seat %d differs from the public one:\n got %+v\nwant %+v", lang, seat, got, want)
			}
		}
	}
	return nil
}
