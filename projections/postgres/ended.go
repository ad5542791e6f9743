package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	evpg "pbem/events/postgres"
)

// endCursor is where a walk through the ended games stands: the end and
// the id of the last game it returned (zero before the first).
type endCursor struct {
	at time.Time
	id string
}

// endedSQL lists the games that ended before $1, after the cursor ($2,
// $3), in the order of their end then id, at most $4: finished games by
// their finished_at, aborted ones by their last update.
const endedSQL = `SELECT id, coalesce(finished_at, updated_at) FROM games
WHERE status IN ('finished', 'aborted') AND coalesce(finished_at, updated_at) < $1
  AND (coalesce(finished_at, updated_at), id) > ($2, $3)
ORDER BY 2, 1 LIMIT $4`

// endedBefore returns the ids of at most limit games that ended (finished
// or aborted) before before and after the cursor, and the cursor after
// them.
func (r *Repo) endedBefore(ctx context.Context, before time.Time, after endCursor, limit int) ([]string, endCursor, error) {
	rows, err := r.pool.Query(ctx, endedSQL, before, after.at, after.id, limit)
	if err != nil {
		return nil, after, fmt.Errorf("projections/postgres: ended games: %w", err)
	}
	var ids []string
	var c endCursor
	if _, err := pgx.ForEachRow(rows, []any{&c.id, &c.at}, func() error {
		ids, after = append(ids, c.id), c
		return nil
	}); err != nil {
		return nil, after, fmt.Errorf("projections/postgres: ended games: %w", err)
	}
	return ids, after, nil
}

// archiveBatch is how many games Archiver archives between two reads of
// the ended games.
const archiveBatch = 100

// Archiver archives the event streams of ended games (events/postgres
// Store.Archive): a finished four-player game's events then take a third
// of the room (docs/ARCHITECTURE.md, "The archive of finished games").
// serve runs one (PBEM_ARCHIVE_AFTER); so does bench/storage.
type Archiver struct {
	repo  *Repo
	store *evpg.Store
	// walked is where the walk through the ended games stands: the games
	// before it were archived by an earlier call (or had nothing to).
	walked endCursor
}

// NewArchiver returns an Archiver of the games of store's database.
func NewArchiver(store *evpg.Store) *Archiver {
	return &Archiver{repo: New(store.Pool()), store: store}
}

// ArchiveEndedBefore archives the games that ended before before and that
// no earlier call of a took, and returns how many streams it archived. A
// game whose stream fails to archive is passed over (and named in the
// error, which joins every such game's): a later Archiver, after a
// restart, tries it again.
func (a *Archiver) ArchiveEndedBefore(ctx context.Context, before time.Time) (int, error) {
	total := 0
	var errs []error
	for {
		ids, next, err := a.repo.endedBefore(ctx, before, a.walked, archiveBatch)
		if err != nil || len(ids) == 0 {
			return total, errors.Join(append(errs, err)...)
		}
		n, err := a.store.Archive(ctx, ids)
		total += n
		if err != nil {
			if ctx.Err() != nil {
				return total, err
			}
			errs = append(errs, err)
		}
		a.walked = next
	}
}
