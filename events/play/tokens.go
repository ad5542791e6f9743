package play

import (
	"pbem/events/tokens"
	"pbem/projections"
)

// Play-link tokens (events/tokens.Seat): the database stores only their
// hash, so a stolen database opens no game, while the email worker can put
// the current link in any email without ever storing the token. Resending
// a link bumps the generation, which revokes the old link.

// seatFor returns the seat of g whose current token is token, or -1.
func seatFor(g *projections.Game, token string) int {
	found := -1
	for _, s := range g.Seats {
		// Compare with every seat (constant time each) to not leak which matched.
		if tokens.Matches(token, s.TokenHash) {
			found = s.Seat
		}
	}
	return found
}
