package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events"
	"pbem/events/play"
	"pbem/projections/outbox"
)

// The SQL of play.Accounts (tables of migration 0020).

// Propose implements play.Accounts.
func (r *Records) Propose(ctx context.Context, p *play.Proposal, mail *outbox.Row) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO proposals (id, token_hash, organiser_name, organiser_email, request,
			created_at, expires_at, confirmed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			p.ID, p.TokenHash, p.OrganiserName, p.OrganiserEmail, p.Request, p.CreatedAt, p.ExpiresAt, p.ConfirmedAt); err != nil {
			return fmt.Errorf("events/play/postgres: propose: %w", err)
		}
		if mail != nil {
			return insertMail(ctx, tx, *mail)
		}
		return nil
	})
}

const proposalCols = `id, token_hash, organiser_name, organiser_email, request, created_at, expires_at, confirmed_at`

func scanProposal(row pgx.Row) (*play.Proposal, error) {
	var p play.Proposal
	err := row.Scan(&p.ID, &p.TokenHash, &p.OrganiserName, &p.OrganiserEmail, &p.Request, &p.CreatedAt, &p.ExpiresAt, &p.ConfirmedAt)
	return &p, err
}

// ClaimProposal implements play.Accounts.
func (r *Records) ClaimProposal(ctx context.Context, tokenHash []byte, now time.Time) (*play.Proposal, error) {
	p, err := scanProposal(r.pool.QueryRow(ctx, `UPDATE proposals SET confirmed_at = COALESCE(confirmed_at, $2)
		WHERE token_hash = $1 AND (confirmed_at IS NOT NULL OR expires_at > $2) RETURNING `+proposalCols, tokenHash, now))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, events.Errorf(events.CodeNotFound, "this confirmation link is unknown or has expired")
	}
	if err != nil {
		return nil, fmt.Errorf("events/play/postgres: claim proposal: %w", err)
	}
	return p, nil
}

// ProposalByToken implements play.Accounts.
func (r *Records) ProposalByToken(ctx context.Context, tokenHash []byte, now time.Time) (*play.Proposal, error) {
	p, err := scanProposal(r.pool.QueryRow(ctx, `SELECT `+proposalCols+` FROM proposals
		WHERE token_hash = $1 AND (confirmed_at IS NOT NULL OR expires_at > $2)`, tokenHash, now))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, events.Errorf(events.CodeNotFound, "this confirmation link is unknown or has expired")
	}
	if err != nil {
		return nil, fmt.Errorf("events/play/postgres: proposal by token: %w", err)
	}
	return p, nil
}

// Proposal implements play.Accounts.
func (r *Records) Proposal(ctx context.Context, id string) (*play.Proposal, error) {
	p, err := scanProposal(r.pool.QueryRow(ctx, `SELECT `+proposalCols+` FROM proposals WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, events.Errorf(events.CodeNotFound, "no organiser for game %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("events/play/postgres: proposal: %w", err)
	}
	return p, nil
}

// QueueMail implements play.Accounts.
func (r *Records) QueueMail(ctx context.Context, rows ...outbox.Row) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		for _, m := range rows {
			if err := insertMail(ctx, tx, m); err != nil {
				return err
			}
		}
		return nil
	})
}

func insertMail(ctx context.Context, tx pgx.Tx, m outbox.Row) error {
	sql, args, err := outbox.Insert(m)
	if err != nil {
		return fmt.Errorf("events/play/postgres: %w", err)
	}
	if _, err := tx.Exec(ctx, sql, args...); err != nil {
		return fmt.Errorf("events/play/postgres: queue %s email: %w", m.Kind, err)
	}
	return nil
}

// Blocked implements play.Accounts.
func (r *Records) Blocked(ctx context.Context, emails []string) ([]string, error) {
	lower := make([]string, len(emails))
	for i, e := range emails {
		lower[i] = strings.ToLower(e)
	}
	rows, err := r.pool.Query(ctx, `SELECT email FROM mail_blocks WHERE email = ANY ($1)`, lower)
	if err != nil {
		return nil, fmt.Errorf("events/play/postgres: blocked: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("events/play/postgres: blocked: %w", err)
	}
	return out, nil
}

// SetBlocked implements play.Accounts.
func (r *Records) SetBlocked(ctx context.Context, email string, blocked bool, now time.Time) error {
	var err error
	if blocked {
		_, err = r.pool.Exec(ctx, `INSERT INTO mail_blocks (email, blocked_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			strings.ToLower(email), now)
	} else {
		_, err = r.pool.Exec(ctx, `DELETE FROM mail_blocks WHERE email = $1`, strings.ToLower(email))
	}
	if err != nil {
		return fmt.Errorf("events/play/postgres: block: %w", err)
	}
	return nil
}

// CreateSignin implements play.Accounts.
func (r *Records) CreateSignin(ctx context.Context, id string, tokenHash []byte, email string, now, expires time.Time, mail *outbox.Row) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO signin_links (id, token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
			id, tokenHash, strings.ToLower(email), now, expires); err != nil {
			return fmt.Errorf("events/play/postgres: sign-in link: %w", err)
		}
		if mail == nil {
			return nil
		}
		return insertMail(ctx, tx, *mail)
	})
}

// UseSignin implements play.Accounts.
func (r *Records) UseSignin(ctx context.Context, tokenHash []byte, now time.Time) (string, error) {
	var email string
	err := r.pool.QueryRow(ctx, `UPDATE signin_links SET used_at = $2
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 AND email <> '' RETURNING email`, tokenHash, now).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", events.Errorf(events.CodeNotFound, "this sign-in link is unknown, used or expired")
	}
	if err != nil {
		return "", fmt.Errorf("events/play/postgres: use sign-in link: %w", err)
	}
	return email, nil
}

// CreateSession implements play.Accounts.
func (r *Records) CreateSession(ctx context.Context, tokenHash []byte, email string, now, expires time.Time) error {
	if _, err := r.pool.Exec(ctx, `INSERT INTO sessions (token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		tokenHash, strings.ToLower(email), now, expires); err != nil {
		return fmt.Errorf("events/play/postgres: session: %w", err)
	}
	return nil
}

// Session implements play.Accounts.
func (r *Records) Session(ctx context.Context, tokenHash []byte, now time.Time) (string, error) {
	var email string
	err := r.pool.QueryRow(ctx, `SELECT email FROM sessions WHERE token_hash = $1 AND expires_at > $2`, tokenHash, now).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", events.Errorf(events.CodeNotFound, "no such session")
	}
	if err != nil {
		return "", fmt.Errorf("events/play/postgres: session: %w", err)
	}
	return email, nil
}

// DeleteSession implements play.Accounts.
func (r *Records) DeleteSession(ctx context.Context, tokenHash []byte) error {
	if _, err := r.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("events/play/postgres: end session: %w", err)
	}
	return nil
}

// Organised implements play.Accounts: a game's id is its
// proposal's.
func (r *Records) Organised(ctx context.Context, email string) ([]play.OrganisedGame, error) {
	rows, err := r.pool.Query(ctx, `SELECT g.id, g.game, g.status, g.players
		FROM proposals p JOIN games g ON g.id = p.id
		WHERE lower(p.organiser_email) = lower($1) AND p.confirmed_at IS NOT NULL
		ORDER BY g.status IN ('finished', 'aborted'), g.updated_at DESC, g.id`, email)
	if err != nil {
		return nil, fmt.Errorf("events/play/postgres: organised games: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.OrganisedGame, error) {
		var o play.OrganisedGame
		err := row.Scan(&o.GameID, &o.Game, &o.Status, &o.Players)
		return o, err
	})
	if err != nil {
		return nil, fmt.Errorf("events/play/postgres: organised games: %w", err)
	}
	return out, nil
}

// HasGames implements play.Accounts.
func (r *Records) HasGames(ctx context.Context, email string) (bool, error) {
	var ok bool
	err := r.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM seats WHERE lower(email) = lower($1))
		OR EXISTS (SELECT 1 FROM proposals WHERE lower(organiser_email) = lower($1) AND confirmed_at IS NOT NULL)`, email).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("events/play/postgres: has games: %w", err)
	}
	return ok, nil
}
