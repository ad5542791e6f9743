package postgres

import (
	"github.com/jackc/pgx/v5"

	"pbem/projections"
)

// cancelMailSQL marks skipped the emails of a taken-back move that are
// still waiting (the mail grace): they are kept for the record, never
// sent. An email a worker already claimed is past saving.
const cancelMailSQL = `UPDATE outbox SET status = 'skipped', last_error = 'the move was taken back', sent_at = now()
	WHERE game_id = $1 AND event_version BETWEEN $2 AND $3 AND status = 'pending' AND attempts = 0`

// queueCancelMail adds the statements that cancel the emails of the moves
// c took back.
func queueCancelMail(b *pgx.Batch, c *projections.Change) {
	for _, t := range c.TakenBack {
		b.Queue(cancelMailSQL, c.Game.ID, t.From, t.Version)
	}
}
