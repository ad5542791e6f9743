package wiring

import (
	"testing"
	"time"
)

func TestMailGrace(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want time.Duration
		bad  bool
	}{
		{"", DefaultMailGrace, false},
		{"0s", 0, false},
		{" 90s ", 90 * time.Second, false},
		{"1h", time.Hour, false},
		{"2", 0, true},
		{"-1s", 0, true},
		{"2h", 0, true},
		{"soon", 0, true},
	} {
		got, err := MailGrace(tc.v)
		if (err != nil) != tc.bad || got != tc.want {
			t.Errorf("PBEM_MAIL_GRACE=%q: %v, %v", tc.v, got, err)
		}
	}
	if DefaultMailGrace != 2*time.Minute {
		t.Fatalf("the default grace is %v, docs/operating.md says 2m", DefaultMailGrace)
	}
}
