package projections

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

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

// TestDescribeAwayWaitIsAnUpperBound: the table's "for at most N days"
// of an away under "wait" is true at any time of day: the wait, counted
// to the hour, rounds up to whole days.
func TestDescribeAwayWaitIsAnUpperBound(t *testing.T) {
	t.Parallel()
	until := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		from time.Time
		want string
	}{
		{time.Date(2026, 12, 2, 0, 10, 0, 0, time.UTC), "3 days"},  // 2 days 23 h 50
		{time.Date(2026, 12, 2, 12, 8, 0, 0, time.UTC), "3 days"},  // 2 days 11 h 52: not "2"
		{time.Date(2026, 12, 2, 23, 40, 0, 0, time.UTC), "2 days"}, // 2 days 20 min, to the hour 2 days
		{time.Date(2026, 12, 4, 23, 50, 0, 0, time.UTC), "1 day"},  // 10 minutes: not "0 minutes"
		{until.Add(-14 * 24 * time.Hour), "14 days"},               // the longest wait, exactly
	} {
		data, _ := json.Marshal(pbemevent.Away{Seat: 0, Date: "2026-12-05", From: c.from, WaitUntil: &until, Effect: pbemevent.AwayWait})
		got := DescribeService(pbemevent.TypeAway, data, []string{"Ann", "Bob"}, "en")
		if !strings.Contains(got, "for at most "+c.want+".") {
			t.Errorf("away from %v: %q, want at most %s", c.from, got, c.want)
		}
	}
}
