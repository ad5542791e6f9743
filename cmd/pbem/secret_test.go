package main

import (
	"strings"
	"testing"
)

// TestCheckSecret: short secrets and long ones of little entropy are
// refused with a message saying how to make one; random ones and the
// generated kind pass.
func TestCheckSecret(t *testing.T) {
	for _, s := range []string{
		"hunter2",
		"systest-secret-0123456789abcdef", // 31 bytes
		strings.Repeat("s", 32),           // one character
		strings.Repeat("hunter2", 6),      // a word repeated
		strings.Repeat("0123456789", 4),   // a small alphabet, in order
	} {
		err := checkSecret(s)
		if err == nil || !strings.Contains(err.Error(), "openssl rand -hex 32") {
			t.Errorf("checkSecret(%q) = %v, want a refusal saying how to make one", s, err)
		}
	}
	for _, s := range []string{
		"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"sJ8vQ2kP0xZr7LmN4wYtB6cHdE1gFaU9iOqRsT3uVb5=",
		"cmd/pbem test secret, not a real one: 7f3a",
	} {
		if err := checkSecret(s); err != nil {
			t.Errorf("checkSecret(%q): %v (%.0f bits)", s, err, secretBits(s))
		}
	}
}
