package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"pbem/projections"
)

// History implements projections.Repository: per version, the seat's own
// row if it has one, else the public row.
func (r *Repo) History(ctx context.Context, id string, seat int) ([]projections.HistoryRow, error) {
	return r.queryHistory(ctx, id, `SELECT DISTINCT ON (h.version) `+historyCols+historyFrom+`
		WHERE h.game_id = $1 AND h.seat IN (-1, $2) ORDER BY h.version, h.seat DESC`, id, seat)
}

// AllHistory implements projections.Repository: every row of the game.
func (r *Repo) AllHistory(ctx context.Context, id string) ([]projections.HistoryRow, error) {
	return r.queryHistory(ctx, id, `SELECT `+historyCols+historyFrom+` WHERE h.game_id = $1 ORDER BY h.version, h.seat`, id)
}

// historyCols are the columns queryHistory scans, in its order: a history
// row's own (what its seat sees) and its event's (see migration 0006).
const historyCols = `h.version, h.seat, e.type, e.actor, h.data, h.summary, e.hash, e.prev_hash, e.recorded_at`

// historyFrom joins each history row to its event.
const historyFrom = ` FROM history h JOIN events e ON e.stream = h.game_id AND e.version = h.version`

// queryHistory runs a query selecting historyCols from game id's history.
func (r *Repo) queryHistory(ctx context.Context, id, query string, args ...any) ([]projections.HistoryRow, error) {
	rows, err := r.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: history of %s: %w", id, err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (projections.HistoryRow, error) {
		h := projections.HistoryRow{GameID: id}
		var data []byte
		err := row.Scan(&h.Version, &h.Seat, &h.Type, &h.Actor, &data, &h.Summary, &h.Hash, &h.PrevHash, &h.RecordedAt)
		h.Data = data
		h.RecordedAt = h.RecordedAt.UTC()
		return h, err
	})
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: history of %s: %w", id, err)
	}
	return out, nil
}

// Request implements projections.Repository. Errors: ENotFound.
func (r *Repo) Request(ctx context.Context, id string, seat int, key string) (*projections.Request, error) {
	rq := projections.Request{GameID: id, Seat: seat, Key: key}
	err := r.pool.QueryRow(ctx, `SELECT version, response FROM move_requests WHERE game_id = $1 AND seat = $2 AND key = $3`,
		id, seat, key).Scan(&rq.Version, &rq.Response)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, projections.Errorf(projections.ENotFound, "no request %q", key)
	}
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: request: %w", err)
	}
	return &rq, nil
}
