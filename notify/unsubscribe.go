package notify

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// ErrBadUnsubscribeToken is returned for an unsubscribe token that is
// malformed, of the old kind, or not made with this server's secret.
var ErrBadUnsubscribeToken = errors.New("notify: bad unsubscribe token")

// unsubPrefix marks the current kind of unsubscribe token. The first kind
// (the address in base64, a dot, an HMAC) showed the address in every
// link; such tokens are refused.
const unsubPrefix = "u2."

// UnsubscribeToken makes the token of an address's unsubscribe link: the
// lower-cased, trimmed address sealed with AES-256-GCM under a key derived
// from PBEM_SECRET, after "u2.", in base64url. The token shows nothing of
// the address, and nobody without the secret can make one or change one
// into another's (GCM authenticates it). The nonce is an HMAC of the
// address (a synthetic IV), so an address always gets the same token and
// two addresses never share a nonce.
func UnsubscribeToken(secret []byte, email string) string {
	e := strings.ToLower(strings.TrimSpace(email))
	aead := unsubAEAD(secret)
	nonce := unsubMAC(secret, "unsubscribe nonce", e)[:aead.NonceSize()]
	sealed := aead.Seal(nonce, nonce, []byte(e), []byte(unsubPrefix))
	return unsubPrefix + base64.RawURLEncoding.EncodeToString(sealed)
}

// VerifyUnsubscribeToken returns the address a token was made for, or
// ErrBadUnsubscribeToken.
func VerifyUnsubscribeToken(secret []byte, token string) (string, error) {
	enc, ok := strings.CutPrefix(token, unsubPrefix)
	if !ok {
		return "", ErrBadUnsubscribeToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	aead := unsubAEAD(secret)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead()+1 {
		return "", ErrBadUnsubscribeToken
	}
	nonce, sealed := raw[:aead.NonceSize()], raw[aead.NonceSize():]
	e, err := aead.Open(nil, nonce, sealed, []byte(unsubPrefix))
	if err != nil {
		return "", ErrBadUnsubscribeToken
	}
	return string(e), nil
}

// unsubAEAD is AES-256-GCM under the unsubscribe key derived from secret.
func unsubAEAD(secret []byte) cipher.AEAD {
	block, err := aes.NewCipher(unsubMAC(secret, "unsubscribe key", ""))
	if err != nil {
		panic(err) // a 32-byte key is always valid
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err) // GCM over AES always builds
	}
	return aead
}

// unsubMAC is HMAC-SHA256 keyed with secret over purpose and data.
func unsubMAC(secret []byte, purpose, data string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write([]byte(data))
	return m.Sum(nil)
}
