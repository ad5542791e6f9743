package main

import (
	"context"
	"strings"
	"testing"
)

// TestCheckSecret: short secrets and long ones easy to guess (words,
// sequences, dates, repetitions) are refused with a message saying how to
// make one; random ones and the ones `pbem secret` makes pass.
func TestCheckSecret(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"hunter2",
		"systest-secret-0123456789abcdef", // 31 bytes
		strings.Repeat("s", 32),           // one character
		strings.Repeat("hunter2", 6),      // a word repeated
		strings.Repeat("0123456789", 4),   // a small alphabet, in order
		// Issue #44: a sequence, and words with a date, passed the
		// estimate of byte frequencies.
		"abcdefghijklmnopqrstuvwxyz012345",
		"pbem-production-secret-2026-12-01",
		"cmd/pbem test secret, not a real one: 7f3a", // words and 16 bits of hex
		strings.Repeat("correct horse battery staple ", 2),
		// A made secret with its check wrong is estimated like any other:
		// here its random part is all zeros.
		"pbem1-" + strings.Repeat("0", 64) + "-00000000",
	} {
		err := checkSecret(s)
		if err == nil || !strings.Contains(err.Error(), "openssl rand -hex 32") {
			t.Errorf("checkSecret(%q) = %v, want a refusal saying how to make one", s, err)
		}
	}
	for _, s := range []string{
		"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"sJ8vQ2kP0xZr7LmN4wYtB6cHdE1gFaU9iOqRsT3uVb5=",
		testServeSecret,
	} {
		if err := checkSecret(s); err != nil {
			t.Errorf("checkSecret(%q): %v (%.0f bits)", s, err, secretBits(s))
		}
	}
}

// TestPbemSecretMakesAcceptedSecrets: `pbem secret` prints a secret that
// serve accepts, a new one each time; its check is what makes it a made
// secret, so one changed character is no longer one.
func TestPbemSecretMakesAcceptedSecrets(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 20 {
		var out, errOut strings.Builder
		if code := run(context.Background(), []string{"secret"}, func(string) string { return "" }, &out, &errOut); code != 0 {
			t.Fatalf("pbem secret: exit %d: %s", code, errOut.String())
		}
		s := strings.TrimSpace(out.String())
		if seen[s] {
			t.Fatalf("pbem secret printed %q twice", s)
		}
		seen[s] = true
		if !isMadeSecret(s) {
			t.Errorf("%q is not recognised as made by pbem secret", s)
		}
		if err := checkSecret(s); err != nil {
			t.Errorf("checkSecret(%q): %v", s, err)
		}
		b := []byte(s)
		b[10] ^= 1 // another hex digit
		if isMadeSecret(string(b)) {
			t.Errorf("%q, one character changed, still passes as made", b)
		}
	}
}
