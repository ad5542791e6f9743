package projections

import (
	"testing"

	"pbem/engine"
)

// TestResultSummaryNamesTheWinners: told from the recorded result alone,
// the line names the winners and no figure (the recorded score did not
// always rank the seats: a user trial read "Giulia wins with 23 points"
// where the fewest daggers had decided).
func TestResultSummaryNamesTheWinners(t *testing.T) {
	t.Parallel()
	names := []string{"Ann", "Bob", "Cid"}
	one := &engine.Result{Ranking: []engine.Standing{{Seat: 1, Place: 1, Score: 42}, {Seat: 0, Place: 2, Score: 30}, {Seat: 2, Place: 3, Score: 3}}, Summary: "Seat 1 wins"}
	shared := &engine.Result{Ranking: []engine.Standing{{Seat: 2, Place: 1, Score: 40}, {Seat: 0, Place: 1, Score: 40}, {Seat: 1, Place: 3, Score: 1}}}
	for _, tc := range []struct {
		r    *engine.Result
		lang string
		want string
	}{
		{one, "en", "Bob wins."},
		{one, "fr", "Bob gagne."},
		{one, "it", "Vince Bob."},
		{one, "xx", "Bob wins."},
		{shared, "en", "Cid, Ann share the win."},
		{&engine.Result{Summary: "nobody"}, "en", "nobody"},
	} {
		if got := ResultSummary(tc.r, names, tc.lang); got != tc.want {
			t.Errorf("ResultSummary(%s) = %q, want %q", tc.lang, got, tc.want)
		}
	}
}
