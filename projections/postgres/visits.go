package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Visit implements projections.Visits. It reads the seat's row, and
// writes only when the version is above the seen one: a reload writes
// nothing (an upsert that changes nothing would still lock the row and
// commit). The write moves seen to since in one statement; a race with
// another visit is settled by its WHERE, and the row is then read as it was.
func (r *Repo) Visit(ctx context.Context, id string, seat int, version int64) (int64, error) {
	var seen, since int64
	err := r.pool.QueryRow(ctx, `SELECT seen, since FROM seat_visits WHERE game_id = $1 AND seat = $2`, id, seat).Scan(&seen, &since)
	switch {
	case err == nil && seen >= version:
		return since, nil
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		return 0, fmt.Errorf("projections/postgres: visit of %s seat %d: %w", id, seat, err)
	}
	err = r.pool.QueryRow(ctx, `WITH up AS (
			INSERT INTO seat_visits AS v (game_id, seat, seen, since) VALUES ($1, $2, $3, 0)
			ON CONFLICT (game_id, seat) DO UPDATE SET since = v.seen, seen = EXCLUDED.seen
			WHERE v.seen < EXCLUDED.seen
			RETURNING since)
		SELECT since FROM up
		UNION ALL
		SELECT since FROM seat_visits WHERE game_id = $1 AND seat = $2 AND NOT EXISTS (SELECT 1 FROM up)`,
		id, seat, version).Scan(&since)
	if err != nil {
		return 0, fmt.Errorf("projections/postgres: visit of %s seat %d: %w", id, seat, err)
	}
	return since, nil
}
