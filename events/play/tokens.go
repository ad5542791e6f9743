package play

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strconv"

	"pbem/projections"
)

// Play-link tokens.
//
// A seat's token is 32 bytes derived from the server secret (PBEM_SECRET) with
// HMAC-SHA256 over the game id, the seat and the seat's token generation; it
// is written base64url without padding. The database stores only SHA-256 of
// the token, so a stolen database opens no game, while the email worker can
// put the current link in any email without ever storing the token. Resending
// a link bumps the generation, which revokes the old link.

// SeatToken returns the play-link token of seat at generation gen.
func SeatToken(secret []byte, gameID string, seat, gen int) string {
	return derive(secret, "seat", gameID, strconv.Itoa(seat), strconv.Itoa(gen))
}

// AdminToken returns the admin token of a game at generation gen.
func AdminToken(secret []byte, gameID string, gen int) string {
	return derive(secret, "admin", gameID, "", strconv.Itoa(gen))
}

// TokenHash is what the database stores for a token: SHA-256 of its text.
func TokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// TokenMatches reports, in constant time, whether token hashes to hash.
func TokenMatches(token string, hash []byte) bool {
	return subtle.ConstantTimeCompare(TokenHash(token), hash) == 1
}

func derive(secret []byte, parts ...string) string {
	m := hmac.New(sha256.New, secret)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// seatFor returns the seat of g whose current token is token, or -1.
func seatFor(g *projections.Game, token string) int {
	found := -1
	for _, s := range g.Seats {
		// Compare with every seat (constant time each) to not leak which matched.
		if TokenMatches(token, s.TokenHash) {
			found = s.Seat
		}
	}
	return found
}
