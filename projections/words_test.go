package projections

import (
	"encoding/json"
	"pbem/events/pbemevent"
	"testing"
)

// TestServiceLinesNameWordsInTheLanguage checks that a timeout's policy
// and a bot's level are said in the line's language, in words, never as
// the policy's identifier.
func TestServiceLinesNameWordsInTheLanguage(t *testing.T) {
	t.Parallel()
	names := []string{"Bob", "Élodie"}
	for _, tc := range []struct {
		typ, data, lang, want string
	}{
		{pbemevent.TypeTimeout, `{"seats":[1],"policy":"skip"}`, "en", "Time ran out for Élodie (turn skipped)."},
		{pbemevent.TypeTimeout, `{"seats":[1],"policy":"default_move"}`, "en", "Time ran out for Élodie (default move)."},
		{pbemevent.TypeTimeout, `{"seats":[1],"policy":"bot"}`, "en", "Time ran out for Élodie (a bot plays)."},
		{pbemevent.TypeTimeout, `{"seats":[1],"policy":"skip"}`, "fr", "Le temps est écoulé pour Élodie (tour passé)."},
		{pbemevent.TypeTimeout, `{"seats":[0],"policy":"default_move"}`, "it", "Il tempo è scaduto per Bob (mossa predefinita)."},
		{pbemevent.TypeTimeout, `{"seats":[0],"policy":"future"}`, "fr", "Le temps est écoulé pour Bob (future)."},
		{pbemevent.TypeSeatBot, `{"seat":0,"bot":"easy"}`, "en", "Bob is now played by a bot (easy)."},
		{pbemevent.TypeSeatBot, `{"seat":0,"bot":"strong"}`, "fr", "La place de Bob est désormais jouée par un robot (fort)."},
		{pbemevent.TypeSeatBot, `{"seat":1,"bot":"normal"}`, "fr", "La place d'Élodie est désormais jouée par un robot (normal)."},
		{pbemevent.TypeSeatBot, `{"seat":1,"bot":"normal"}`, "it", "Il posto di Élodie ora è giocato da un bot (normale)."},
	} {
		if got := DescribeService(tc.typ, json.RawMessage(tc.data), names, tc.lang); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.typ, tc.lang, got, tc.want)
		}
	}
}
