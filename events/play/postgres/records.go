package postgres

import (
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/play"
)

// Records is the service's own records in PostgreSQL: it is both the
// play.Accounts (accounts.go) and the play.Visits (visits.go) of a
// play.Config.
type Records struct {
	pool *pgxpool.Pool
}

var (
	_ play.Accounts = (*Records)(nil)
	_ play.Visits   = (*Records)(nil)
)

// New returns the Records on pool.
func New(pool *pgxpool.Pool) *Records { return &Records{pool: pool} }
