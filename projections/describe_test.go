package projections

import (
	"encoding/json"
	"testing"

	"pbem/events/pbemevent"
)

func TestDescribeTakeback(t *testing.T) {
	t.Parallel()
	data, _ := json.Marshal(pbemevent.Takeback{Seat: 1, Version: 7, From: 6})
	for lang, want := range map[string]string{
		"en": "Élodie takes back their move.",
		"fr": "Élodie reprend son coup.",
		"it": "Élodie ritira la sua mossa.",
	} {
		if got := DescribeService(pbemevent.TypeTakeback, data, []string{"Ann", "Élodie"}, lang); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
