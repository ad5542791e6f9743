package main

import (
	"fmt"
	"math"
)

// Minimum strength of a PBEM_SECRET given to serve. Every seat token, admin
// token and reply address is an HMAC keyed with it, and each player holds
// one of those: a guessable secret is found offline from a player's own
// link, and opens every seat of every game.
const (
	// minSecretBytes is the shortest secret serve accepts.
	minSecretBytes = 32
	// minSecretBits is the least estimated entropy: the secret's length
	// times the Shannon entropy of its bytes' distribution. 32 random
	// bytes in hexadecimal (64 characters) estimate about 250 bits; a
	// word repeated or a run of one character, far less.
	minSecretBits = 128
)

// makeSecretHint says how to make a good secret.
const makeSecretHint = "make one with `openssl rand -hex 32`, or leave PBEM_SECRET unset to use the one serve generates in PBEM_DATA"

// checkSecret refuses a PBEM_SECRET shorter than minSecretBytes or whose
// estimated entropy is below minSecretBits.
func checkSecret(s string) error {
	if len(s) < minSecretBytes {
		return fmt.Errorf("PBEM_SECRET has %d bytes, fewer than %d: %s", len(s), minSecretBytes, makeSecretHint)
	}
	if bits := secretBits(s); bits < minSecretBits {
		return fmt.Errorf("PBEM_SECRET is too predictable (about %.0f bits, at least %d needed): %s", bits, minSecretBits, makeSecretHint)
	}
	return nil
}

// secretBits estimates the entropy of s: the length of its shortest
// repeating unit (s itself unless s repeats one) times the Shannon entropy
// of that unit's bytes' frequencies. It over-estimates a secret made of
// words, but catches repetitions and small alphabets.
func secretBits(s string) float64 {
	s = s[:period(s)]
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	var h float64
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h * n
}

// period is the smallest p such that s[i] == s[i-p] for every i >= p
// (len(s) when s repeats nothing): the longest border of s, found with
// the Knuth-Morris-Pratt failure function, subtracted from its length.
func period(s string) int {
	if s == "" {
		return 0
	}
	fail := make([]int, len(s)) // fail[i]: longest proper border of s[:i+1]
	for i, k := 1, 0; i < len(s); i++ {
		for k > 0 && s[i] != s[k] {
			k = fail[k-1]
		}
		if s[i] == s[k] {
			k++
		}
		fail[i] = k
	}
	return len(s) - fail[len(s)-1]
}
