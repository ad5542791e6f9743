package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	"pbem/projections"
)

// Repo is the PostgreSQL projections.Repository.
type Repo struct {
	pool *pgxpool.Pool
}

var _ projections.Repository = (*Repo)(nil)

// New returns a Repo on pool.
func New(pool *pgxpool.Pool) *Repo { return &Repo{pool: pool} }

func interval(d time.Duration) pgtype.Interval {
	return pgtype.Interval{Microseconds: d.Microseconds(), Valid: true}
}

func duration(i pgtype.Interval) time.Duration {
	return time.Duration(i.Microseconds)*time.Microsecond + time.Duration(i.Days)*24*time.Hour +
		time.Duration(i.Months)*30*24*time.Hour
}

func notFound(err error, id string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return events.Errorf(events.CodeNotFound, "no game %q", id)
	}
	return fmt.Errorf("projections/postgres: %w", err)
}
