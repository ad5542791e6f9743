package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// EndCursor is where a walk through the ended games stands: the end and
// the id of the last game it returned (zero before the first).
type EndCursor struct {
	At time.Time
	ID string
}

// endedSQL lists the games that ended ($1) before, after the cursor ($2,
// $3), in the order of their end then id, at most $4: finished games by
// their finished_at, aborted ones by their last update.
const endedSQL = `SELECT id, coalesce(finished_at, updated_at) FROM games
WHERE status IN ('finished', 'aborted') AND coalesce(finished_at, updated_at) < $1
  AND (coalesce(finished_at, updated_at), id) > ($2, $3)
ORDER BY 2, 1 LIMIT $4`

// EndedBefore returns the ids of at most limit games that ended (finished
// or aborted) before before and after the cursor, and the cursor after
// them: the archive's walk (cmd/pbem, PBEM_ARCHIVE_AFTER).
func (r *Repo) EndedBefore(ctx context.Context, before time.Time, after EndCursor, limit int) ([]string, EndCursor, error) {
	rows, err := r.pool.Query(ctx, endedSQL, before, after.At, after.ID, limit)
	if err != nil {
		return nil, after, fmt.Errorf("projections/postgres: ended games: %w", err)
	}
	var ids []string
	var c EndCursor
	if _, err := pgx.ForEachRow(rows, []any{&c.ID, &c.At}, func() error {
		ids, after = append(ids, c.ID), c
		return nil
	}); err != nil {
		return nil, after, fmt.Errorf("projections/postgres: ended games: %w", err)
	}
	return ids, after, nil
}
