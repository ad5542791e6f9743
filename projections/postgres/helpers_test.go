package postgres_test

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	play1 "pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/projections/postgres"
)

// secret is the service secret of playtest's services: the seats' links
// are derived from it.
var secret = []byte(playtest.Secret)

// newServiceClock returns a service on a fresh database
// (playtest.NewService) whose clock reads *clock.
func newServiceClock(t *testing.T, clock *time.Time) (*play1.Service, *postgres.Repo, events.Store, *pgxpool.Pool) {
	t.Helper()
	return playtest.NewService(t, func() time.Time { return *clock })
}
