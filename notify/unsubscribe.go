package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// ErrBadUnsubscribeToken is returned for an unsubscribe token that is
// malformed or not signed with this server's secret.
var ErrBadUnsubscribeToken = errors.New("notify: bad unsubscribe token")

// UnsubscribeToken signs an address for the unsubscribe link: the
// lower-cased address (base64url), a dot, and HMAC-SHA256 over it keyed
// with PBEM_SECRET. It opens only that address's mail preference.
func UnsubscribeToken(secret []byte, email string) string {
	e := strings.ToLower(strings.TrimSpace(email))
	return base64.RawURLEncoding.EncodeToString([]byte(e)) + "." + unsubMAC(secret, e)
}

// VerifyUnsubscribeToken returns the address a token was made for, or
// ErrBadUnsubscribeToken.
func VerifyUnsubscribeToken(secret []byte, token string) (string, error) {
	enc, mac, ok := strings.Cut(token, ".")
	if !ok {
		return "", ErrBadUnsubscribeToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || len(raw) == 0 {
		return "", ErrBadUnsubscribeToken
	}
	e := string(raw)
	if !hmac.Equal([]byte(mac), []byte(unsubMAC(secret, e))) {
		return "", ErrBadUnsubscribeToken
	}
	return e, nil
}

func unsubMAC(secret []byte, email string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("unsubscribe\x00"))
	m.Write([]byte(email))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
