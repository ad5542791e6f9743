package postgres

import (
	"context"
	"fmt"
)

// Visit implements projections.Visits in one statement: a version above
// the seat's seen one moves seen to since; the same (or an older) version
// changes nothing and reads the row as it was.
func (r *Repo) Visit(ctx context.Context, id string, seat int, version int64) (int64, error) {
	var since int64
	err := r.pool.QueryRow(ctx, `WITH up AS (
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
