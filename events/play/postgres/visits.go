package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The SQL of play.Visits (table seat_visits, migrations 0050 and 0094).

// Visit implements play.Visits. It reads the seat's row, and writes only
// when the version is above the seen one, or, for a reload, when the
// visit's time is more than a minute old (an upsert that changes nothing
// would still lock the row and commit). The write moves seen to since in
// one statement; a race with another visit is settled by its WHERE, and
// the row is then read as it was.
func (r *Records) Visit(ctx context.Context, id string, seat int, version int64) (int64, error) {
	var seen, since int64
	var old bool
	err := r.pool.QueryRow(ctx, `SELECT seen, since, coalesce(visited_at < now() - interval '1 minute', true)
		FROM seat_visits WHERE game_id = $1 AND seat = $2`, id, seat).Scan(&seen, &since, &old)
	switch {
	case err == nil && seen >= version:
		if old {
			if _, err := r.pool.Exec(ctx, `UPDATE seat_visits SET visited_at = now() WHERE game_id = $1 AND seat = $2`, id, seat); err != nil {
				return 0, fmt.Errorf("events/play/postgres: visit of %s seat %d: %w", id, seat, err)
			}
		}
		return since, nil
	case err != nil && !errors.Is(err, pgx.ErrNoRows):
		return 0, fmt.Errorf("events/play/postgres: visit of %s seat %d: %w", id, seat, err)
	}
	err = r.pool.QueryRow(ctx, `WITH up AS (
			INSERT INTO seat_visits AS v (game_id, seat, seen, since, visited_at) VALUES ($1, $2, $3, 0, now())
			ON CONFLICT (game_id, seat) DO UPDATE SET since = v.seen, seen = EXCLUDED.seen, visited_at = EXCLUDED.visited_at
			WHERE v.seen < EXCLUDED.seen
			RETURNING since)
		SELECT since FROM up
		UNION ALL
		SELECT since FROM seat_visits WHERE game_id = $1 AND seat = $2 AND NOT EXISTS (SELECT 1 FROM up)`,
		id, seat, version).Scan(&since)
	if err != nil {
		return 0, fmt.Errorf("events/play/postgres: visit of %s seat %d: %w", id, seat, err)
	}
	return since, nil
}

// LastVisits implements play.Visits.
func (r *Records) LastVisits(ctx context.Context, id string) (map[int]time.Time, error) {
	rows, err := r.pool.Query(ctx, `SELECT seat, visited_at FROM seat_visits WHERE game_id = $1 AND visited_at IS NOT NULL`, id)
	if err != nil {
		return nil, fmt.Errorf("events/play/postgres: last visits of %s: %w", id, err)
	}
	out := map[int]time.Time{}
	var seat int
	var at time.Time
	if _, err := pgx.ForEachRow(rows, []any{&seat, &at}, func() error { out[seat] = at; return nil }); err != nil {
		return nil, fmt.Errorf("events/play/postgres: last visits of %s: %w", id, err)
	}
	return out, nil
}
