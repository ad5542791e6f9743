package tokens

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// ErrBadUnsubscribe is returned for an unsubscribe or block token that is
// malformed, of the old kind, or not made with this server's secret.
var ErrBadUnsubscribe = errors.New("tokens: bad unsubscribe token")

// unsubPrefix marks the current kind of unsubscribe token. The first kind
// (the address in base64, a dot, an HMAC) showed the address in every
// link; such tokens are refused.
const unsubPrefix = "u2."

// Unsubscribe makes the token of an address's unsubscribe link: the
// lower-cased, trimmed address sealed with AES-256-GCM under a key derived
// from the secret, after "u2.", in base64url. The token shows nothing of
// the address, and nobody without the secret can make one or change one
// into another's (GCM authenticates it). The nonce is an HMAC of the
// address (a synthetic IV), so an address always gets the same token and
// two addresses never share a nonce.
func Unsubscribe(secret []byte, email string) string {
	e := strings.ToLower(strings.TrimSpace(email))
	aead := unsubAEAD(secret)
	nonce := purposeMAC(secret, "unsubscribe nonce", e)[:aead.NonceSize()]
	sealed := aead.Seal(nonce, nonce, []byte(e), []byte(unsubPrefix))
	return unsubPrefix + base64.RawURLEncoding.EncodeToString(sealed)
}

// VerifyUnsubscribe returns the address a token was made for, or
// ErrBadUnsubscribe.
func VerifyUnsubscribe(secret []byte, token string) (string, error) {
	enc, ok := strings.CutPrefix(token, unsubPrefix)
	if !ok {
		return "", ErrBadUnsubscribe
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	aead := unsubAEAD(secret)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead()+1 {
		return "", ErrBadUnsubscribe
	}
	nonce, sealed := raw[:aead.NonceSize()], raw[aead.NonceSize():]
	e, err := aead.Open(nil, nonce, sealed, []byte(unsubPrefix))
	if err != nil {
		return "", ErrBadUnsubscribe
	}
	return string(e), nil
}

// unsubAEAD is AES-256-GCM under the unsubscribe key derived from secret.
func unsubAEAD(secret []byte) cipher.AEAD {
	block, err := aes.NewCipher(purposeMAC(secret, "unsubscribe key", ""))
	if err != nil {
		panic(err) // a 32-byte key is always valid
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err) // GCM over AES always builds
	}
	return aead
}

// Block signs an address for the link that refuses every invitation to
// it: the lower-cased address (base64url), a dot, and HMAC-SHA256 over it
// in a purpose of its own (an unsubscribe token does not block, nor the
// reverse).
func Block(secret []byte, email string) string {
	e := strings.ToLower(strings.TrimSpace(email))
	return base64.RawURLEncoding.EncodeToString([]byte(e)) + "." + blockMAC(secret, e)
}

// VerifyBlock returns the address a block token was made for, or
// ErrBadUnsubscribe.
func VerifyBlock(secret []byte, token string) (string, error) {
	enc, mac, ok := strings.Cut(token, ".")
	if !ok {
		return "", ErrBadUnsubscribe
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil || len(raw) == 0 {
		return "", ErrBadUnsubscribe
	}
	e := string(raw)
	if !hmac.Equal([]byte(mac), []byte(blockMAC(secret, e))) {
		return "", ErrBadUnsubscribe
	}
	return e, nil
}

func blockMAC(secret []byte, email string) string {
	return base64.RawURLEncoding.EncodeToString(purposeMAC(secret, "block invitations", email))
}

// CSRF is the CSRF token of a page session: HMAC-SHA256 of the session
// cookie's value. A form carries it; a POST must carry the one of its
// cookie (double submit: another site can neither read the cookie nor
// compute the HMAC).
func CSRF(secret []byte, session string) string {
	return base64.RawURLEncoding.EncodeToString(purposeMAC(secret, "pbem page csrf", session))
}

// purposeMAC is HMAC-SHA256 keyed with secret over purpose, a zero byte
// and data.
func purposeMAC(secret []byte, purpose, data string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	m.Write([]byte{0})
	m.Write([]byte(data))
	return m.Sum(nil)
}
