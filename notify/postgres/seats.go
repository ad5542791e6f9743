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

// zonesSQL selects the time zone of each requested seat ($1, $2: game ids
// and seats), with the request's index.
const zonesSQL = `SELECT r.i, s.time_zone
FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS r(game_id, seat, i)
JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat`

// storiesSQL selects, for each requested seat ($1, $2, $3: game ids, seats
// and versions), its history rows (its own row of a version if it has one,
// else the public row, as projections/postgres.Repo.History does) after
// its last game event of its own, up to the request's version, with the
// request's index. Table talk and the game's creation are left out (see
// notify's Story).
const storiesSQL = `SELECT r.i, x.version, x.type, x.actor, x.idempotency_key, x.summary
FROM unnest($1::text[], $2::int[], $3::bigint[]) WITH ORDINALITY AS r(game_id, seat, upto, i)
CROSS JOIN LATERAL (
  SELECT DISTINCT ON (h.version) h.version, e.type, e.actor, e.idempotency_key, h.summary
  FROM history h JOIN events e ON e.stream = h.game_id AND e.version = h.version
  WHERE h.game_id = r.game_id AND h.seat IN (-1, r.seat) AND h.version <= r.upto
    AND h.version > coalesce((SELECT max(m.version) FROM events m
        WHERE m.stream = r.game_id AND m.actor = 'seat:' || r.seat AND m.version <= r.upto AND m.type NOT LIKE 'pbem.%'), 0)
    AND e.type NOT IN ('pbem.chat', 'pbem.created')
  ORDER BY h.version, h.seat DESC) x
ORDER BY r.i, x.version`

// Stories implements notify.SeatReader with one query for the zones, one
// for the your-turn stories, and one per round-end email. An unknown seat
// has no zone and no story.
func (s *Seats) Stories(ctx context.Context, reqs []notify.StoryRequest) ([]*notify.Story, error) {
	out := make([]*notify.Story, len(reqs))
	ids, seats, uptos := make([]string, len(reqs)), make([]int32, len(reqs)), make([]int64, len(reqs))
	var told []int // the requests that tell a story
	for i, r := range reqs {
		out[i] = &notify.Story{}
		ids[i], seats[i], uptos[i] = r.GameID, int32(r.Seat), r.Upto
		if r.Kind.TellsStory() {
			told = append(told, i)
		}
	}
	rows, err := s.pool.Query(ctx, zonesSQL, ids, seats)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: time zones: %w", err)
	}
	var i int64
	var zone string
	if _, err := pgx.ForEachRow(rows, []any{&i, &zone}, func() error {
		out[i-1].Zone = zone
		return nil
	}); err != nil {
		return nil, fmt.Errorf("notify/postgres: time zones: %w", err)
	}
	if len(told) > 0 {
		if err := s.stories(ctx, reqs, told, out); err != nil {
			return nil, err
		}
	}
	for i, r := range reqs {
		if r.Kind == notify.RoundEnd {
			if out[i].Round, err = s.round(ctx, r.GameID, r.Seat, r.Upto); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// stories reads the story of each request of reqs listed in told into out.
func (s *Seats) stories(ctx context.Context, reqs []notify.StoryRequest, told []int, out []*notify.Story) error {
	ids, seats, uptos := make([]string, len(told)), make([]int32, len(told)), make([]int64, len(told))
	for j, i := range told {
		ids[j], seats[j], uptos[j] = reqs[i].GameID, int32(reqs[i].Seat), reqs[i].Upto
	}
	rows, err := s.pool.Query(ctx, storiesSQL, ids, seats, uptos)
	if err != nil {
		return fmt.Errorf("notify/postgres: stories: %w", err)
	}
	var j int64
	var e notify.StoryEvent
	var key string
	if _, err := pgx.ForEachRow(rows, []any{&j, &e.Version, &e.Type, &e.Actor, &key, &e.Summary}, func() error {
		e.Seat = notify.ActingSeat(e.Actor, key)
		st := out[told[j-1]]
		st.Events = append(st.Events, e)
		return nil
	}); err != nil {
		return fmt.Errorf("notify/postgres: stories: %w", err)
	}
	return nil
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
