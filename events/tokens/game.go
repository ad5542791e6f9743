package tokens

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"strconv"
)

// Seat returns the play-link token of seat at generation gen: 32 bytes,
// base64url without padding.
func Seat(secret []byte, gameID string, seat, gen int) string {
	return derive(secret, "seat", gameID, strconv.Itoa(seat), strconv.Itoa(gen))
}

// Admin returns the admin token of a game at generation gen.
func Admin(secret []byte, gameID string, gen int) string {
	return derive(secret, "admin", gameID, "", strconv.Itoa(gen))
}

// Confirm is the token of proposal id's confirmation link.
func Confirm(secret []byte, id string) string { return derive(secret, "confirm", id, "", "0") }

// Signin is the token of sign-in link id.
func Signin(secret []byte, id string) string { return derive(secret, "signin", id, "", "0") }

// Hash is what the database stores for a token: SHA-256 of its text.
func Hash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// Matches reports, in constant time, whether token hashes to hash.
func Matches(token string, hash []byte) bool {
	return subtle.ConstantTimeCompare(Hash(token), hash) == 1
}

func derive(secret []byte, parts ...string) string {
	return base64.RawURLEncoding.EncodeToString(mac(secret, parts...))
}

// mac is HMAC-SHA256 keyed with secret over parts, each followed by a zero
// byte.
func mac(secret []byte, parts ...string) []byte {
	m := hmac.New(sha256.New, secret)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return m.Sum(nil)
}

var replyEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// ReplyTag returns the reply-address secret of seat at token generation
// gen: 80 bits, lower-case base32. It covers no version: the tag of the
// addresses written before ReplyTagAt, still read.
func ReplyTag(secret []byte, gameID string, seat, gen int) string {
	return replyEncoding.EncodeToString(mac(secret, "reply", gameID, strconv.Itoa(seat), strconv.Itoa(gen))[:10])
}

// ReplyTagAt returns the reply-address secret of seat at token generation
// gen for an email written at game version: 80 bits, lower-case base32,
// over the version too, so that an address whose version is rewritten or
// deleted no longer opens the seat.
func ReplyTagAt(secret []byte, gameID string, seat, gen int, version int64) string {
	return replyEncoding.EncodeToString(mac(secret, "reply-at", gameID, strconv.Itoa(seat), strconv.Itoa(gen), strconv.FormatInt(version, 10))[:10])
}
