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

// recordTurnsSQL keeps, for the record, the your-turn emails that the
// game row owes ($1) about the versions a take-back takes back ($2..$3),
// before the game's update drops them (turn_mail, migration 0101): they
// become outbox rows marked skipped, as cancelMailSQL marks the move's
// other emails. The row owes them by what identifies them (outbox.Turn,
// migration 0105), so the record's payload is {} (one a previous release
// owed keeps its payload as the row kept it: outbox.UnpackPayload reads
// it); a skipped row is never rendered. Take-backs are rare; the moves'
// emails are not written here.
const recordTurnsSQL = `INSERT INTO outbox (game_id, seat, kind, payload, event_version, created_at, next_attempt_at,
		status, last_error, sent_at)
	SELECT g.id, (t->>'seat')::int, 'your_turn', coalesce(t->'payload', '{}'::json), (t->>'version')::bigint,
		to_timestamp((t->>'at_us')::bigint / 1000000.0), to_timestamp((t->>'due_us')::bigint / 1000000.0),
		'skipped', 'the move was taken back', now()
	FROM games g, json_array_elements(g.turn_mail) t
	WHERE g.id = $1 AND (t->>'version')::bigint BETWEEN $2 AND $3`

// queueRecordTurns adds the statements that record the owed your-turn
// emails of the moves c takes back; they run before the game's update.
func queueRecordTurns(b *pgx.Batch, c *projections.Change) {
	for _, t := range c.TakenBack {
		b.Queue(recordTurnsSQL, c.Game.ID, t.From, t.Version)
	}
}

// queueCancelMail adds the statements that cancel the emails of the moves
// c took back.
func queueCancelMail(b *pgx.Batch, c *projections.Change) {
	for _, t := range c.TakenBack {
		b.Queue(cancelMailSQL, c.Game.ID, t.From, t.Version)
	}
}
