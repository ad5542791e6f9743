package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	evpg "pbem/events/postgres"
	"pbem/projections"
)

// The SQL of "My games" and of the seats a game awaits: reads of the game
// rows (read models) and the events they point at.

// MyGames implements projections.Repository: the address's seats with each
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

// PersonLanguage implements projections.Repository, in one query: not
// each game of the address read in turn (a game created for a person with
// a long history read every game of theirs and its last event).
func (r *Repo) PersonLanguage(ctx context.Context, email, except string) (string, error) {
	var lang string
	err := r.pool.QueryRow(ctx, `SELECT s.language FROM seats s JOIN games g ON g.id = s.game_id
		WHERE lower(s.email) = lower($1) AND s.game_id <> $2 AND s.language <> ''
		ORDER BY g.updated_at DESC, g.id, s.seat LIMIT 1`, email, except).Scan(&lang)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("projections/postgres: person language: %w", err)
	}
	return lang, nil
}

// WaitingSince implements projections.Repository: the version since which
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
