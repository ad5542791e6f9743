package play

import (
	"context"
	"time"
)

// Visits remembers when each seat last opened its play page, for the
// page's "Since your last turn" (issue #14). It is page bookkeeping, not
// rebuilt from events: the service's own record, like Accounts.
// events/play/postgres implements it.
type Visits interface {
	// Visit records that seat of game id was shown its page at version,
	// and returns the version that seat had seen before this one (0 if
	// none). Showing the same version again changes nothing and returns
	// the same answer, so a reload tells the same lines; an older version
	// (a late request) changes nothing either.
	// The visit's time is kept too (see LastVisits), refreshed by a
	// reload at most once a minute.
	Visit(ctx context.Context, id string, seat int, version int64) (since int64, err error)
	// LastVisits maps each seat of game id that opened its play page to
	// the time it last did (seats never seen are absent).
	LastVisits(ctx context.Context, id string) (map[int]time.Time, error)
}
