package postgres

import (
	"context"
	"errors"
	"fmt"
	"pbem/projections/outbox"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Inbound is the mail listener's ledger: the replies read (tables
// inbound_mail and mail_bounces, migration 0010). It implements
// inbound.Ledger.
type Inbound struct{ pool *pgxpool.Pool }

// NewInbound returns an Inbound on pool.
func NewInbound(pool *pgxpool.Pool) *Inbound { return &Inbound{pool: pool} }

// Finish records message key of a game's seat with its outcome and writes
// its answer to the outbox (outbox.Insert, at now) unless the seat got
// perHour answers in the hour before now, in one transaction. It returns
// duplicate=true, and writes nothing, when the key was recorded already.
func (in *Inbound) Finish(ctx context.Context, gameID, key string, seat int, outcome string, answer *outbox.Row, perHour int, now time.Time) (answered, duplicate bool, err error) {
	err = pgx.BeginFunc(ctx, in.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO inbound_mail (game_id, key, seat, received_at, claimed_at, done, outcome, answered)
SELECT $1, $2, $3, $4, $4, true, $5, $6::bool AND (SELECT count(*) FROM inbound_mail
    WHERE game_id = $1 AND seat = $3 AND answered AND received_at > $7) < $8
ON CONFLICT (game_id, key) DO NOTHING
RETURNING answered`, gameID, key, seat, now, outcome, answer != nil, now.Add(-time.Hour), perHour).Scan(&answered)
		if errors.Is(err, pgx.ErrNoRows) {
			duplicate = true
			return nil
		}
		if err != nil || !answered {
			return err
		}
		row := *answer
		row.GameID, row.Seat, row.At = gameID, &seat, now
		sql, args, err := outbox.Insert(row)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, sql, args...)
		return err
	})
	if err != nil {
		return false, false, fmt.Errorf("notify/postgres: inbound finish: %w", err)
	}
	return answered, duplicate, nil
}

// Bounce records a hard bounce of a seat's address, and marks the seat's
// latest sent email of the game failed with the reason, so that the
// organiser sees it among the game's failed emails.
func (in *Inbound) Bounce(ctx context.Context, gameID string, seat int, email, reason string, now time.Time) error {
	if len(reason) > 300 {
		reason = reason[:300]
	}
	return pgx.BeginFunc(ctx, in.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO mail_bounces (email, game_id, seat, reason, bounced_at)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (email) DO UPDATE SET game_id = excluded.game_id, seat = excluded.seat, reason = excluded.reason, bounced_at = excluded.bounced_at`,
			strings.ToLower(email), gameID, seat, reason, now); err != nil {
			return fmt.Errorf("notify/postgres: bounce: %w", err)
		}
		if _, err := tx.Exec(ctx, `UPDATE outbox SET status = 'failed', last_error = $3
WHERE id = (SELECT id FROM outbox WHERE game_id = $1 AND seat = $2 AND status = 'sent' ORDER BY id DESC LIMIT 1)`,
			gameID, seat, "bounced: "+reason); err != nil {
			return fmt.Errorf("notify/postgres: bounce: %w", err)
		}
		return nil
	})
}
