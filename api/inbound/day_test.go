package inbound

import (
	"testing"
	"time"
)

// TestReadDay: the days an away line may name, in the three languages,
// and what names none.
func TestReadDay(t *testing.T) {
	t.Parallel()
	today := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	for said, want := range map[string]string{
		"12 December": "2026-12-12", "December 12": "2026-12-12", "dec 12th": "2026-12-12", "12 décembre": "2026-12-12",
		"jusqu’au 12 décembre": "2026-12-12", "12 dicembre 2027": "2027-12-12", "fino al 5 gennaio": "2027-01-05",
		"5 January": "2027-01-05", "1 December": "2026-12-01", "2026-12-24": "2026-12-24", "24/12": "2026-12-24",
		"1er janvier": "2027-01-01", "until the 3 février": "2027-02-03", "31 November": "", "soon": "", "13/13": "",
	} {
		got, ok := readDay(said, today)
		if got != want || ok != (want != "") {
			t.Errorf("ReadDay(%q) = %q, %v; want %q", said, got, ok, want)
		}
	}
}
