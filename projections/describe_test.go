package projections

import (
	"encoding/json"
	"testing"

	"pbem/events/pbemevent"
)

func TestDescribeTakeback(t *testing.T) {
	data, _ := json.Marshal(pbemevent.Takeback{Seat: 1, Version: 7, From: 6})
	for lang, want := range map[string]string{
		"en": "Élodie takes back their move (version 7).",
		"fr": "Élodie reprend son coup (version 7).",
		"it": "Élodie ritira la sua mossa (versione 7).",
	} {
		if got := DescribeService(pbemevent.TypeTakeback, data, []string{"Ann", "Élodie"}, lang); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
