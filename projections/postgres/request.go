package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"pbem/events"
	"pbem/projections"
)

// Request implements projections.Repository. Errors: events.CodeNotFound.
func (r *Repo) Request(ctx context.Context, id string, seat int, key string) (*projections.Request, error) {
	rq := projections.Request{GameID: id, Seat: seat, Key: key}
	err := r.pool.QueryRow(ctx, `SELECT version, response FROM move_requests WHERE game_id = $1 AND seat = $2 AND key = $3`,
		id, seat, key).Scan(&rq.Version, &rq.Response)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, events.Errorf(events.CodeNotFound, "no request %q", key)
	}
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: request: %w", err)
	}
	return &rq, nil
}
