package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	evpg "pbem/events/postgres"
	"pbem/projections"
	"pbem/projections/outbox"
)

// The SQL of projections.Accounts (tables of migration 0020).

// Propose implements projections.Accounts.
func (r *Repo) Propose(ctx context.Context, p *projections.Proposal, mail *outbox.Row) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO proposals (id, token_hash, organiser_name, organiser_email, request,
			created_at, expires_at, confirmed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			p.ID, p.TokenHash, p.OrganiserName, p.OrganiserEmail, p.Request, p.CreatedAt, p.ExpiresAt, p.ConfirmedAt); err != nil {
			return fmt.Errorf("projections/postgres: propose: %w", err)
		}
		if mail != nil {
			return insertMail(ctx, tx, *mail)
		}
		return nil
	})
}

const proposalCols = `id, token_hash, organiser_name, organiser_email, request, created_at, expires_at, confirmed_at`

func scanProposal(row pgx.Row) (*projections.Proposal, error) {
	var p projections.Proposal
	err := row.Scan(&p.ID, &p.TokenHash, &p.OrganiserName, &p.OrganiserEmail, &p.Request, &p.CreatedAt, &p.ExpiresAt, &p.ConfirmedAt)
	return &p, err
}

// ClaimProposal implements projections.Accounts.
func (r *Repo) ClaimProposal(ctx context.Context, tokenHash []byte, now time.Time) (*projections.Proposal, error) {
	p, err := scanProposal(r.pool.QueryRow(ctx, `UPDATE proposals SET confirmed_at = COALESCE(confirmed_at, $2)
		WHERE token_hash = $1 AND (confirmed_at IS NOT NULL OR expires_at > $2) RETURNING `+proposalCols, tokenHash, now))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, projections.Faultf(projections.ErrNotFound, "this confirmation link is unknown or has expired")
	}
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: claim proposal: %w", err)
	}
	return p, nil
}

// ProposalByToken implements projections.Accounts.
func (r *Repo) ProposalByToken(ctx context.Context, tokenHash []byte, now time.Time) (*projections.Proposal, error) {
	p, err := scanProposal(r.pool.QueryRow(ctx, `SELECT `+proposalCols+` FROM proposals
		WHERE token_hash = $1 AND (confirmed_at IS NOT NULL OR expires_at > $2)`, tokenHash, now))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, projections.Faultf(projections.ErrNotFound, "this confirmation link is unknown or has expired")
	}
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: proposal by token: %w", err)
	}
	return p, nil
}

// Proposal implements projections.Accounts.
func (r *Repo) Proposal(ctx context.Context, id string) (*projections.Proposal, error) {
	p, err := scanProposal(r.pool.QueryRow(ctx, `SELECT `+proposalCols+` FROM proposals WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, projections.Faultf(projections.ErrNotFound, "no organiser for game %s", id)
	}
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: proposal: %w", err)
	}
	return p, nil
}

// QueueMail implements projections.Accounts.
func (r *Repo) QueueMail(ctx context.Context, rows ...outbox.Row) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		for _, m := range rows {
			if err := insertMail(ctx, tx, m); err != nil {
				return err
			}
		}
		return nil
	})
}

func insertMail(ctx context.Context, q querier, m outbox.Row) error {
	sql, args, err := outbox.Insert(m)
	if err != nil {
		return fmt.Errorf("projections/postgres: %w", err)
	}
	if _, err := q.Exec(ctx, sql, args...); err != nil {
		return fmt.Errorf("projections/postgres: queue %s email: %w", m.Kind, err)
	}
	return nil
}

// Blocked implements projections.Accounts.
func (r *Repo) Blocked(ctx context.Context, emails []string) ([]string, error) {
	lower := make([]string, len(emails))
	for i, e := range emails {
		lower[i] = strings.ToLower(e)
	}
	rows, err := r.pool.Query(ctx, `SELECT email FROM mail_blocks WHERE email = ANY ($1)`, lower)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: blocked: %w", err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: blocked: %w", err)
	}
	return out, nil
}

// SetBlocked implements projections.Accounts.
func (r *Repo) SetBlocked(ctx context.Context, email string, blocked bool, now time.Time) error {
	var err error
	if blocked {
		_, err = r.pool.Exec(ctx, `INSERT INTO mail_blocks (email, blocked_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
			strings.ToLower(email), now)
	} else {
		_, err = r.pool.Exec(ctx, `DELETE FROM mail_blocks WHERE email = $1`, strings.ToLower(email))
	}
	if err != nil {
		return fmt.Errorf("projections/postgres: block: %w", err)
	}
	return nil
}

// CreateSignin implements projections.Accounts.
func (r *Repo) CreateSignin(ctx context.Context, id string, tokenHash []byte, email string, now, expires time.Time, mail outbox.Row) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO signin_links (id, token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
			id, tokenHash, strings.ToLower(email), now, expires); err != nil {
			return fmt.Errorf("projections/postgres: sign-in link: %w", err)
		}
		return insertMail(ctx, tx, mail)
	})
}

// UseSignin implements projections.Accounts.
func (r *Repo) UseSignin(ctx context.Context, tokenHash []byte, now time.Time) (string, error) {
	var email string
	err := r.pool.QueryRow(ctx, `UPDATE signin_links SET used_at = $2
		WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING email`, tokenHash, now).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", projections.Faultf(projections.ErrNotFound, "this sign-in link is unknown, used or expired")
	}
	if err != nil {
		return "", fmt.Errorf("projections/postgres: use sign-in link: %w", err)
	}
	return email, nil
}

// CreateSession implements projections.Accounts.
func (r *Repo) CreateSession(ctx context.Context, tokenHash []byte, email string, now, expires time.Time) error {
	if _, err := r.pool.Exec(ctx, `INSERT INTO sessions (token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
		tokenHash, strings.ToLower(email), now, expires); err != nil {
		return fmt.Errorf("projections/postgres: session: %w", err)
	}
	return nil
}

// Session implements projections.Accounts.
func (r *Repo) Session(ctx context.Context, tokenHash []byte, now time.Time) (string, error) {
	var email string
	err := r.pool.QueryRow(ctx, `SELECT email FROM sessions WHERE token_hash = $1 AND expires_at > $2`, tokenHash, now).Scan(&email)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", projections.Faultf(projections.ErrNotFound, "no such session")
	}
	if err != nil {
		return "", fmt.Errorf("projections/postgres: session: %w", err)
	}
	return email, nil
}

// DeleteSession implements projections.Accounts.
func (r *Repo) DeleteSession(ctx context.Context, tokenHash []byte) error {
	if _, err := r.pool.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash); err != nil {
		return fmt.Errorf("projections/postgres: end session: %w", err)
	}
	return nil
}

// MyGames implements projections.Accounts: the address's seats with each
// game's last event (the event store's ReadAt; the service tells it:
// LastMove).
func (r *Repo) MyGames(ctx context.Context, email string) ([]projections.MyGame, error) {
	rows, err := r.pool.Query(ctx, `SELECT g.id, g.game, g.language, g.status, g.players, s.seat, g.to_move, g.deadline_at,
			g.version, g.result, g.updated_at,
			(SELECT array_agg(coalesce(b.bot, '') ORDER BY b.seat) FROM seats b WHERE b.game_id = g.id)
		FROM seats s JOIN games g ON g.id = s.game_id
		WHERE lower(s.email) = lower($1)
		ORDER BY g.status IN ('finished', 'aborted'), g.deadline_at NULLS LAST, g.updated_at DESC, g.id, s.seat`, email)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: my games: %w", err)
	}
	var ids []string
	var versions []int64
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (projections.MyGame, error) {
		var m projections.MyGame
		var toMove []int32
		var version int64
		err := row.Scan(&m.GameID, &m.Game, &m.Language, &m.Status, &m.Players, &m.Seat, &toMove, &m.DeadlineAt,
			&version, &m.Result, &m.UpdatedAt, &m.Bots)
		m.ToMove = []int{}
		for _, s := range toMove {
			m.ToMove = append(m.ToMove, int(s))
		}
		ids, versions = append(ids, m.GameID), append(versions, version)
		return m, err
	})
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: my games: %w", err)
	}
	last, err := evpg.ReadAt(ctx, r.pool, ids, versions)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: my games: %w", err)
	}
	for i := range out {
		if last[i].Version != 0 {
			out[i].Last, out[i].LastMoveAt = &last[i], &last[i].RecordedAt
		}
	}
	return out, nil
}

// Organised implements projections.Accounts: a game's id is its
// proposal's.
func (r *Repo) Organised(ctx context.Context, email string) ([]projections.OrganisedGame, error) {
	rows, err := r.pool.Query(ctx, `SELECT g.id, g.game, g.status, g.players
		FROM proposals p JOIN games g ON g.id = p.id
		WHERE lower(p.organiser_email) = lower($1) AND p.confirmed_at IS NOT NULL
		ORDER BY g.status IN ('finished', 'aborted'), g.updated_at DESC, g.id`, email)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: organised games: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (projections.OrganisedGame, error) {
		var o projections.OrganisedGame
		err := row.Scan(&o.GameID, &o.Game, &o.Status, &o.Players)
		return o, err
	})
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: organised games: %w", err)
	}
	return out, nil
}

// HasGames implements projections.Accounts.
func (r *Repo) HasGames(ctx context.Context, email string) (bool, error) {
	var ok bool
	err := r.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM seats WHERE lower(email) = lower($1))
		OR EXISTS (SELECT 1 FROM proposals WHERE lower(organiser_email) = lower($1) AND confirmed_at IS NOT NULL)`, email).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("projections/postgres: has games: %w", err)
	}
	return ok, nil
}

// WaitingSince implements projections.Accounts: the version since which
// each awaited seat is awaited (games.awaited_since), dated by its event
// (the event store's ReadAt).
func (r *Repo) WaitingSince(ctx context.Context, id string) (map[int]time.Time, error) {
	rows, err := r.pool.Query(ctx, `SELECT w.seat, w.since
		FROM games g CROSS JOIN unnest(g.to_move, g.awaited_since) AS w(seat, since)
		WHERE g.id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: waiting since: %w", err)
	}
	var seats []int
	var ids []string
	var versions []int64
	var seat int
	var since *int64
	if _, err := pgx.ForEachRow(rows, []any{&seat, &since}, func() error {
		if since != nil {
			seats, ids, versions = append(seats, seat), append(ids, id), append(versions, *since)
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("projections/postgres: waiting since: %w", err)
	}
	evs, err := evpg.ReadAt(ctx, r.pool, ids, versions)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: waiting since: %w", err)
	}
	out := map[int]time.Time{}
	for i, e := range evs {
		if e.Version != 0 {
			out[seats[i]] = e.RecordedAt
		}
	}
	return out, nil
}
