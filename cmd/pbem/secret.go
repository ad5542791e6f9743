package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"math"
	"strings"

	"github.com/trustelem/zxcvbn"
)

// Minimum strength of a PBEM_SECRET given to serve. Every seat token, admin
// token and reply address is an HMAC keyed with it, and each player holds
// one of those: a guessable secret is found offline from a player's own
// link, and opens every seat of every game.
const (
	// minSecretBytes is the shortest secret serve accepts.
	minSecretBytes = 32
	// minSecretBits is the least estimated guessability, in bits: the
	// smaller of two estimates (secretBits).
	minSecretBits = 128
)

// makeSecretHint says how to make a good secret.
const makeSecretHint = "make one with `pbem secret` (or `openssl rand -hex 32`), or leave PBEM_SECRET unset to use the one serve generates in PBEM_DATA"

// checkSecret refuses a PBEM_SECRET shorter than minSecretBytes or whose
// estimated guessability is below minSecretBits, unless `pbem secret`
// made it (isMadeSecret).
func checkSecret(s string) error {
	if isMadeSecret(s) {
		return nil
	}
	if len(s) < minSecretBytes {
		return fmt.Errorf("PBEM_SECRET has %d bytes, fewer than %d: %s", len(s), minSecretBytes, makeSecretHint)
	}
	if bits := secretBits(s); bits < minSecretBits {
		return fmt.Errorf("PBEM_SECRET is too easy to guess (about %.0f bits, at least %d needed; words, sequences, dates and repetitions count for little): %s",
			bits, minSecretBits, makeSecretHint)
	}
	return nil
}

// A secret `pbem secret` makes: madePrefix, 32 random bytes in hexadecimal,
// "-", and the first 4 bytes of SHA-256(madePrefix + those 64 characters)
// in hexadecimal, a check that a person does not write by chance.
const (
	madePrefix = "pbem1-"
	madeRandom = 32
	madeCheck  = 4
)

// newSecret makes a secret of madeRandom random bytes (256 bits).
func newSecret() (string, error) {
	b := make([]byte, madeRandom)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	body := madePrefix + hex.EncodeToString(b)
	return body + "-" + madeSum(body), nil
}

// madeSum is the check of a made secret's body.
func madeSum(body string) string {
	sum := sha256.Sum256([]byte(body))
	return hex.EncodeToString(sum[:madeCheck])
}

// isMadeSecret reports whether s has the form newSecret gives, its check
// included.
func isMadeSecret(s string) bool {
	i := strings.LastIndexByte(s, '-')
	if !strings.HasPrefix(s, madePrefix) || i != len(madePrefix)+2*madeRandom {
		return false
	}
	body, check := s[:i], s[i+1:]
	if len(check) != 2*madeCheck {
		return false
	}
	if _, err := hex.DecodeString(body[len(madePrefix):]); err != nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(check), []byte(madeSum(body))) == 1
}

// secretBits estimates how many guesses s would take an attacker, in bits:
// the smaller of zxcvbn's estimate (dictionary words, names, keyboard
// patterns, sequences like abcdef or 012345, dates and repeats count for
// little; random characters for log2(10) bits each, a low bound) and the
// length of s's shortest repeating unit times the Shannon entropy of that
// unit's bytes (which catches what zxcvbn misses: a long phrase written
// twice). 32 random bytes in hexadecimal estimate about 200 bits; the
// alphabet followed by digits, 14; "pbem-production-secret-2026-12-01",
// 67.
func secretBits(s string) float64 {
	return min(math.Log2(zxcvbn.PasswordStrength(s[:min(len(s), zxcvbnMax)], nil).Guesses), shannonBits(s))
}

// zxcvbnMax bounds what zxcvbn reads of a secret, so that its time stays
// bounded: the guesses of a prefix bound those of the whole from below.
const zxcvbnMax = 128

// shannonBits is the length of s's shortest repeating unit (s itself
// unless s repeats one) times the Shannon entropy of that unit's bytes'
// frequencies.
func shannonBits(s string) float64 {
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

// secretCmd is `pbem secret`: it prints a new secret for PBEM_SECRET.
func secretCmd(_ context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "secret")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	s, err := newSecret()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(e.stdout, s)
	return err
}
