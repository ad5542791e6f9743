package projections

import (
	"encoding/json"
	"pbem/events/pbemevent"
	"testing"

	"pbem/engine"
)

func TestTextsCatalogAgrees(t *testing.T) {
	t.Parallel()
	if err := texts.Check(); err != nil {
		t.Fatal(err)
	}
}

// TestDescribeService is the service events' table: names, elision,
// plurals, and an unreadable payload.
func TestDescribeService(t *testing.T) {
	t.Parallel()
	names := []string{"Bob", "Élodie", "Anna"}
	raw := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		typ  string
		data json.RawMessage
		lang string
		want string
	}{
		{pbemevent.TypePlayerReplaced, raw(pbemevent.PlayerReplaced{Name: "Zoé", Previous: "Alice"}), "fr", "Zoé prend la place d'Alice."},
		{pbemevent.TypePlayerReplaced, raw(pbemevent.PlayerReplaced{Name: "Zoé", Previous: "Bob"}), "fr", "Zoé prend la place de Bob."},
		{pbemevent.TypeLinkResent, raw(pbemevent.LinkResent{Seat: 1}), "en", "A new play link was sent to Élodie."},
		{pbemevent.TypeSeatBot, raw(pbemevent.SeatBot{Seat: 2}), "it", "Anna gioca di nuovo."},
		{pbemevent.TypeChat, raw(pbemevent.Chat{Seat: 0, Text: "gg"}), "fr", "Bob dit\u00a0: «\u00a0gg\u00a0»"},
		{pbemevent.TypeLinkResent, raw(pbemevent.LinkResent{Seat: 7}), "en", "A new play link was sent to seat 7."},
		{pbemevent.TypeAborted, nil, "de", "The game is aborted."},
		{pbemevent.TypeExtended, raw(pbemevent.Extended{By: "24h0m0s"}), "en", "The deadline is extended by 1 day."},
		{pbemevent.TypeExtended, raw(pbemevent.Extended{By: "72h0m0s"}), "fr", "Le délai est prolongé de 3 jours."},
		{pbemevent.TypeExtended, raw(pbemevent.Extended{By: "1h0m0s"}), "it", "La scadenza è prorogata di 1 ora."},
		{pbemevent.TypeExtended, raw(pbemevent.Extended{By: "1h30m0s"}), "en", "The deadline is extended by 90 minutes."},
		{pbemevent.TypeChat, json.RawMessage(`{"seat": "x"}`), "en", "An event of this game could not be read (the audit's verify names it)."},
		{"pbem.unknown", nil, "en", "pbem.unknown"},
	} {
		if got := DescribeService(tc.typ, tc.data, names, tc.lang); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.typ, tc.lang, got, tc.want)
		}
	}
}

func TestResultSummaryLanguages(t *testing.T) {
	t.Parallel()
	one := &engine.Result{Ranking: []engine.Standing{{Seat: 0, Place: 1, Score: 1}, {Seat: 1, Place: 2, Score: 0}}}
	shared := &engine.Result{Ranking: []engine.Standing{{Seat: 0, Place: 1, Score: 12}, {Seat: 1, Place: 1, Score: 12}}}
	for _, tc := range []struct {
		r          *engine.Result
		lang, want string
	}{
		{one, "en", "Bob wins."},
		{one, "fr", "Bob gagne."},
		{one, "it", "Vince Bob."},
		{shared, "en", "Bob, Élodie share the win."},
		{shared, "it", "Bob, Élodie condividono la vittoria."},
	} {
		if got := ResultSummary(tc.r, []string{"Bob", "Élodie"}, tc.lang); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.lang, got, tc.want)
		}
	}
}
