// Package playtest holds what tests of the game service and its users
// need of it beyond its API: a seat's view read the way its player reads
// it, a test's own stream of game ids and seeds (Seeds), and a service on
// a fresh PostgreSQL database with the games and moves tests start from
// (NewService, Create, MoveOf, UntilReversible).
//
// It is a test helper (as events/postgres/pgtest is): no product package
// imports it.
package playtest

import (
	"context"

	"pbem/events"
	"pbem/events/play"
	"pbem/events/tokens"
)

// SeatView returns the view of seat in game id as its player's current
// play link opens it (play.Service.View). The link is derived from secret
// (the service's), as the service derives it: generation 0, and each
// newer one while the older is, by the service's own account
// (play.Service.OldLinkOf), a link the organiser replaced (a replacement,
// a corrected address, a link sent again, a seat handed back from a bot).
// Errors: those of View (events.CodeUnauthorized for a seat the game lacks).
func SeatView(ctx context.Context, svc *play.Service, secret []byte, id string, seat int) (*play.View, error) {
	for gen := 0; ; gen++ {
		tok := tokens.Seat(secret, id, seat, gen)
		v, err := svc.View(ctx, id, tok)
		if play.ErrorCode(err) != events.CodeUnauthorized {
			return v, err
		}
		if old, oerr := svc.OldLinkOf(ctx, id, tok); oerr != nil || old == nil {
			return nil, err
		}
	}
}
