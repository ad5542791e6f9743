package postgres_test

import (
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	evpg "pbem/events/postgres"
)

func newStore(t *testing.T, pool *pgxpool.Pool) events.Store {
	s := evpg.New(pool)
	t.Cleanup(s.Close)
	return s
}
