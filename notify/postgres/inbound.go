package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/notify"
)

// Inbound is the mail listener's ledger: the replies read (tables
// inbound_mail and mail_bounces, migration 0010). It implements
// inbound.Ledger.
type Inbound struct{ pool *pgxpool.Pool }

// NewInbound returns an Inbound on pool.
func NewInbound(pool *pgxpool.Pool) *Inbound { return &Inbound{pool: pool} }

// inboundLease is how long a claimed message is left to the process that
// claimed it before a new delivery may handle it again.
const inboundLease = 2 * time.Minute

// Begin claims a message: a new key, or one whose handling was claimed
// more than inboundLease ago and never finished.
func (in *Inbound) Begin(ctx context.Context, gameID, key string, seat int, now time.Time) (bool, error) {
	tag, err := in.pool.Exec(ctx, `INSERT INTO inbound_mail (game_id, key, seat, received_at, claimed_at)
VALUES ($1, $2, $3, $4, $4)
ON CONFLICT (game_id, key) DO UPDATE SET claimed_at = excluded.claimed_at
WHERE NOT inbound_mail.done AND inbound_mail.claimed_at < excluded.claimed_at - $5 * interval '1 second'`,
		gameID, key, seat, now, int(inboundLease/time.Second))
	if err != nil {
		return false, fmt.Errorf("notify/postgres: inbound begin: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// Answers counts the answers written to a seat since a time.
func (in *Inbound) Answers(ctx context.Context, gameID string, seat int, since time.Time) (int, error) {
	var n int
	err := in.pool.QueryRow(ctx, `SELECT count(*) FROM inbound_mail
WHERE game_id = $1 AND seat = $2 AND answered AND received_at >= $3`, gameID, seat, since).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("notify/postgres: inbound answers: %w", err)
	}
	return n, nil
}

// Finish marks a message done and writes its answer, in one transaction.
func (in *Inbound) Finish(ctx context.Context, gameID, key, outcome string, answer *notify.NewRow, now time.Time) error {
	return pgx.BeginFunc(ctx, in.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE inbound_mail SET done = true, outcome = $3, answered = $4
WHERE game_id = $1 AND key = $2`, gameID, key, outcome, answer != nil); err != nil {
			return fmt.Errorf("notify/postgres: inbound finish: %w", err)
		}
		if answer == nil {
			return nil
		}
		return insertRows(ctx, tx, now, []notify.NewRow{*answer})
	})
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

// Bounced reports whether an address bounced for good, and why.
func (in *Inbound) Bounced(ctx context.Context, email string) (bool, string, error) {
	var reason string
	err := in.pool.QueryRow(ctx, `SELECT reason FROM mail_bounces WHERE email = $1`, strings.ToLower(email)).Scan(&reason)
	if err == pgx.ErrNoRows {
		return false, "", nil
	}
	if err != nil {
		return false, "", fmt.Errorf("notify/postgres: bounced: %w", err)
	}
	return true, reason, nil
}
