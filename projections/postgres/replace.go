package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"pbem/events"
	"pbem/projections"
)

// Replace implements projections.Repository. It locks the game's row
// first: a move committing meanwhile either went before (its version is
// then above the rebuilt one: events.CodeConflict, rebuild again) or waits for the
// rebuild to commit.
func (r *Repo) Replace(ctx context.Context, c *projections.Change) error {
	g := c.Game
	b := &pgx.Batch{}
	if err := queueUpdateGame(b, g); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		var live int64
		if err := tx.QueryRow(ctx, `SELECT version FROM games WHERE id = $1 FOR UPDATE`, g.ID).Scan(&live); err != nil {
			return notFound(err, g.ID)
		}
		if live > g.Version {
			return events.Errorf(events.CodeConflict, "game %s moved on to version %d during its rebuild", g.ID, live)
		}
		return tx.SendBatch(ctx, b).Close()
	})
	if c := events.ErrorCode(err); c == events.CodeConflict || c == events.CodeNotFound {
		return err
	}
	if err != nil {
		return fmt.Errorf("projections/postgres: rebuild %s: %w", g.ID, err)
	}
	return nil
}
