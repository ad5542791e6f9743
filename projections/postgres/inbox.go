package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"pbem/projections"
)

// Inbox implements projections.Repository.
func (r *Repo) Inbox(ctx context.Context, email string) ([]projections.InboxItem, error) {
	rows, err := r.pool.Query(ctx, `SELECT g.id, g.game, s.seat, s.name, g.awaited_since[array_position(g.to_move, s.seat)], g.deadline_at
		FROM seats s JOIN games g ON g.id = s.game_id AND s.seat = ANY (g.to_move)
		WHERE lower(s.email) = lower($1) AND g.status = 'active'
		ORDER BY g.deadline_at NULLS LAST, g.id, s.seat`, email)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: inbox: %w", err)
	}
	items, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (projections.InboxItem, error) {
		var it projections.InboxItem
		err := row.Scan(&it.GameID, &it.Game, &it.Seat, &it.Name, &it.Since, &it.Deadline)
		return it, err
	})
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: inbox: %w", err)
	}
	return items, nil
}
