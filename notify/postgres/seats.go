package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/notify"
)

// Seats reads, for an email being rendered, its seat's redacted history
// since its last move and its time zone, and records the time zone a play
// page reported (seats.time_zone, migration 0060).
type Seats struct{ pool *pgxpool.Pool }

var _ notify.SeatReader = (*Seats)(nil)

// NewSeats returns a Seats on pool.
func NewSeats(pool *pgxpool.Pool) *Seats { return &Seats{pool: pool} }

// storySQL selects a seat's history rows (its own row of a version if it
// has one, else the public row, as projections/postgres.Repo.History does)
// after the seat's last game event of its own ($4 is "seat:N"), up to $3.
// Table talk and the game's creation are left out (see notify's Story).
const storySQL = `SELECT DISTINCT ON (h.version) h.version, e.type, e.actor, e.idempotency_key, h.summary
FROM history h JOIN events e ON e.stream = h.game_id AND e.version = h.version
WHERE h.game_id = $1 AND h.seat IN (-1, $2) AND h.version <= $3
  AND h.version > coalesce((SELECT max(m.version) FROM events m
      WHERE m.stream = $1 AND m.actor = $4 AND m.version <= $3 AND m.type NOT LIKE 'pbem.%'), 0)
  AND e.type NOT IN ('pbem.chat', 'pbem.created')
ORDER BY h.version, h.seat DESC`

// Story implements notify.SeatReader. An unknown seat has no zone and no
// story.
func (s *Seats) Story(ctx context.Context, gameID string, seat int, upto int64, lines bool) (*notify.Story, error) {
	st := &notify.Story{}
	err := s.pool.QueryRow(ctx, `SELECT time_zone FROM seats WHERE game_id = $1 AND seat = $2`, gameID, seat).Scan(&st.Zone)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("notify/postgres: time zone of %s seat %d: %w", gameID, seat, err)
	}
	if !lines {
		return st, nil
	}
	rows, err := s.pool.Query(ctx, storySQL, gameID, seat, upto, fmt.Sprintf("seat:%d", seat))
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: story of %s seat %d: %w", gameID, seat, err)
	}
	st.Events, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (notify.StoryEvent, error) {
		var e notify.StoryEvent
		var key string
		err := r.Scan(&e.Version, &e.Type, &e.Actor, &key, &e.Summary)
		e.Seat = notify.ActingSeat(e.Actor, key)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: story of %s seat %d: %w", gameID, seat, err)
	}
	return st, nil
}

// SetZone implements notify.SeatReader: it writes only when the zone
// changed, so a page opened again costs no write.
func (s *Seats) SetZone(ctx context.Context, gameID string, seat int, zone string) error {
	if _, err := notify.CheckZone(zone); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `UPDATE seats SET time_zone = $3 WHERE game_id = $1 AND seat = $2 AND time_zone <> $3`, gameID, seat, zone)
	if err != nil {
		return fmt.Errorf("notify/postgres: set time zone of %s seat %d: %w", gameID, seat, err)
	}
	return nil
}
