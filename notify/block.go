package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// BlockToken signs an address for the link that refuses every invitation
// to it: the lower-cased address (base64url), a dot, and HMAC-SHA256 over
// it keyed with PBEM_SECRET (in a domain of its own: an unsubscribe token
// does not block, nor the reverse).
func BlockToken(secret []byte, email string) string {
	e := strings.ToLower(strings.TrimSpace(email))
	return base64.RawURLEncoding.EncodeToString([]byte(e)) + "." + blockMAC(secret, e)
}

// VerifyBlockToken returns the address a block token was made for, or
// ErrBadUnsubscribeToken.
func VerifyBlockToken(secret []byte, token string) (string, error) {
	enc, mac, ok := strings.Cut(token, ".")
	if !ok {
		return "", ErrBadUnsubscribeToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || len(raw) == 0 {
		return "", ErrBadUnsubscribeToken
	}
	e := string(raw)
	if !hmac.Equal([]byte(mac), []byte(blockMAC(secret, e))) {
		return "", ErrBadUnsubscribeToken
	}
	return e, nil
}

func blockMAC(secret []byte, email string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("block invitations\x00"))
	m.Write([]byte(email))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}
