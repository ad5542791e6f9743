package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/notify"
)

// Seats reads, for an email being rendered, its seat's time zone, its
// redacted history since its last move and the summary of a round that
// ended, and records the time zone a play page reported (seats.time_zone,
// migration 0060).
type Seats struct {
	pool  *pgxpool.Pool
	games engine.Registry
}

var _ notify.SeatReader = (*Seats)(nil)

// NewSeats returns a Seats on pool; games are the engines that summarise
// rounds (nil: round-end emails carry no summary).
func NewSeats(pool *pgxpool.Pool, games engine.Registry) *Seats {
	return &Seats{pool: pool, games: games}
}

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
func (s *Seats) Story(ctx context.Context, gameID string, seat int, upto int64, kind notify.Kind) (*notify.Story, error) {
	st := &notify.Story{}
	err := s.pool.QueryRow(ctx, `SELECT time_zone FROM seats WHERE game_id = $1 AND seat = $2`, gameID, seat).Scan(&st.Zone)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("notify/postgres: time zone of %s seat %d: %w", gameID, seat, err)
	}
	if kind == notify.RoundEnd {
		if st.Round, err = s.round(ctx, gameID, seat, upto); err != nil {
			return nil, err
		}
	}
	if !kind.TellsStory() {
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

// roundSQL selects the game's engine events as seat sees them up to $3.
const roundSQL = `SELECT DISTINCT ON (h.version) e.type, h.data
FROM history h JOIN events e ON e.stream = h.game_id AND e.version = h.version
WHERE h.game_id = $1 AND h.seat IN (-1, $2) AND h.version <= $3 AND e.type NOT LIKE 'pbem.%'
ORDER BY h.version, h.seat DESC`

// round is the engine's summary of the last round ended at or before
// version upto, from seat's redacted history (nil without the game's
// engine or an ended round).
func (s *Seats) round(ctx context.Context, gameID string, seat int, upto int64) (*engine.RoundSummary, error) {
	var name, lang string
	var names []string
	err := s.pool.QueryRow(ctx, `SELECT game, language, players FROM games WHERE id = $1`, gameID).Scan(&name, &lang, &names)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: game %s: %w", gameID, err)
	}
	eng, ok := s.games[name]
	if !ok {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, roundSQL, gameID, seat, upto)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: round of %s: %w", gameID, err)
	}
	evs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Event, error) {
		var typ string
		var data []byte
		if err := r.Scan(&typ, &data); err != nil {
			return nil, err
		}
		return eng.DecodeEvent(typ, data)
	})
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: round of %s: %w", gameID, err)
	}
	// The round: from the end of the round before the last one ended.
	end, from := -1, 0
	for i := len(evs) - 1; i >= 0; i-- {
		if !eng.RoundEnd(evs[i]) {
			continue
		}
		if end < 0 {
			end = i
			continue
		}
		from = i
		break
	}
	if end < 0 {
		return nil, nil
	}
	return eng.RoundSummary(evs[from:end+1], names, lang), nil
}
