package main

import (
	"strings"
	"testing"
)

// TestMailSenders reads PBEM_MAIL_SENDERS: empty is the worker's default
// (0), 1 to 64 is taken, anything else is refused with an error that names
// the variable.
func TestMailSenders(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]int{"": 0, "  ": 0, "1": 1, " 8 ": 8, "64": 64} {
		if n, err := mailSenders(v); err != nil || n != want {
			t.Errorf("mailSenders(%q) = %d, %v; want %d", v, n, err, want)
		}
	}
	for _, v := range []string{"0", "-1", "65", "four", "4s", "1e3"} {
		if n, err := mailSenders(v); err == nil || !strings.Contains(err.Error(), "PBEM_MAIL_SENDERS") {
			t.Errorf("mailSenders(%q) = %d, %v; want an error naming PBEM_MAIL_SENDERS", v, n, err)
		}
	}
}
