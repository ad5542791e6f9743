package postgres_test

import (
	"testing"

	"pbem/events"
	"pbem/events/eventstest"
	"pbem/events/postgres"
	"pbem/events/postgres/pgtest"
)

// newStore returns a Store on a fresh migrated database.
func newStore(t *testing.T) *postgres.Store {
	t.Helper()
	s := postgres.New(pgtest.NewPool(t))
	t.Cleanup(s.Close)
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	eventstest.Run(t, func(t *testing.T) events.Store { return newStore(t) })
}
