package tokens

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
)

// oldUnsubscribeToken is the first kind of token: the address in base64,
// a dot and an HMAC of it.
func oldUnsubscribeToken(secret []byte, email string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("unsubscribe\x00"))
	m.Write([]byte(email))
	return base64.RawURLEncoding.EncodeToString([]byte(email)) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// TestUnsubscribeTokenIsOpaque: a token shows nothing of its address, is
// stable per address, is refused when changed or made with another secret,
// and the old kind (the address in base64) is refused.
func TestUnsubscribeTokenIsOpaque(t *testing.T) {
	secret := []byte("s3cret")
	const email = "ann.smith@example.org"
	tok := Unsubscribe(secret, email)
	for _, shown := range []string{email, "ann", base64.RawURLEncoding.EncodeToString([]byte(email))[:8],
		base64.StdEncoding.EncodeToString([]byte(email))[:8]} {
		if strings.Contains(tok, shown) {
			t.Errorf("token %q shows %q", tok, shown)
		}
	}
	if tok != Unsubscribe(secret, " Ann.Smith@Example.org ") {
		t.Error("the same address got two tokens")
	}
	if tok == Unsubscribe(secret, "bob@example.org") {
		t.Error("two addresses share a token")
	}
	if e, err := VerifyUnsubscribe(secret, tok); err != nil || e != email {
		t.Fatalf("verify = %q, %v", e, err)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(tok, unsubPrefix))
	for i := range raw {
		b := append([]byte(nil), raw...)
		b[i] ^= 1
		if _, err := VerifyUnsubscribe(secret, unsubPrefix+base64.RawURLEncoding.EncodeToString(b)); err == nil {
			t.Fatalf("a token with byte %d changed verified", i)
		}
	}
	for _, bad := range []string{oldUnsubscribeToken(secret, email), Unsubscribe([]byte("other"), email),
		unsubPrefix, unsubPrefix + "AAAA", "u1." + strings.TrimPrefix(tok, unsubPrefix), tok[:len(tok)-2]} {
		if _, err := VerifyUnsubscribe(secret, bad); err == nil {
			t.Errorf("token %q verified", bad)
		}
	}
}
