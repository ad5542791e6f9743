package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/events/pbemevent"
	evpg "pbem/events/postgres"
	"pbem/notify"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Seats reads, for an email being rendered, its seat's time zone, its
// history since its last move and the summary of a round that ended (told
// from the events: Histories), and records the time zone a play page
// reported (seats.time_zone, migration 0060).
type Seats struct {
	pool      *pgxpool.Pool
	histories Histories
}

var _ notify.SeatReader = (*Seats)(nil)

// NewSeats returns a Seats on pool; h tells the stories and rounds (a
// Seats without h.Events records and reads time zones only).
func NewSeats(pool *pgxpool.Pool, h Histories) *Seats {
	return &Seats{pool: pool, histories: h}
}

// zonesSQL selects the time zone of each requested seat ($1, $2: game ids
// and seats), with the request's index. A seat whose page never told its
// zone takes the one its address told in another game (seats_email), so
// that a player's deadlines are not told in UTC until the first visit of
// each game's page. The other games are read by address in a query of
// their own, joined after: Citus joins the seats of many games only on
// their game (docs/SCALING.md, "Running on Citus").
const zonesSQL = `WITH s AS (
  SELECT r.i, s.time_zone, lower(s.email) AS email
  FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS r(game_id, seat, i)
  JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat
), told AS (
  SELECT lower(o.email) AS email, min(o.time_zone) AS time_zone FROM seats o
  WHERE lower(o.email) IN (SELECT email FROM s WHERE time_zone = '') AND o.time_zone <> ''
  GROUP BY lower(o.email)
)
SELECT s.i, coalesce(nullif(s.time_zone, ''), told.time_zone, '') FROM s LEFT JOIN told ON told.email = s.email`

// storiesSQL selects, for each requested seat ($1, $2, $3: game ids,
// seats and the versions of the seats' last game events of their own up
// to the requests' versions, 0: none), with the request's index, its game
// row and that version: its story is told after it.
const storiesSQL = `SELECT r.i, g.game, coalesce(nullif(s.language, ''), g.language), g.players, g.version, r.last
FROM unnest($1::text[], $2::int[], $3::bigint[]) WITH ORDINALITY AS r(game_id, seat, last, i)
JOIN games g ON g.id = r.game_id
JOIN seats s ON s.game_id = r.game_id AND s.seat = r.seat
ORDER BY r.i`

// Stories implements notify.SeatReader with one query for the zones, one
// for the your-turn stories, and one per round-end email. An unknown seat
// has no zone and no story.
func (s *Seats) Stories(ctx context.Context, reqs []notify.StoryRequest) ([]*notify.Story, error) {
	out := make([]*notify.Story, len(reqs))
	ids, seats, uptos := make([]string, len(reqs)), make([]int32, len(reqs)), make([]int64, len(reqs))
	var told, talk []int // the requests that tell a story, and table talk
	for i, r := range reqs {
		out[i] = &notify.Story{}
		ids[i], seats[i], uptos[i] = r.GameID, int32(r.Seat), r.Upto
		switch {
		case r.Kind.TellsStory():
			told = append(told, i)
		case r.Kind.Gathered():
			talk = append(talk, i)
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
	if len(talk) > 0 && s.histories.Events != nil {
		if err := s.chatStories(ctx, reqs, talk, out); err != nil {
			return nil, err
		}
	}
	for i, r := range reqs {
		// A round-end email tells its round; a game-over email the last
		// round (the game's end is owed no round-end email of its own).
		if r.Kind == outbox.RoundEnd || r.Kind == outbox.GameOver {
			if out[i].Round, err = s.round(ctx, r.GameID, r.Seat, r.Upto); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// stories reads the story of each request of reqs listed in told into
// out: the seat's history (its own row of a version if it has one, else
// the public row) after its last move or muster answer of its own
// (pbemevent.EndsStory), up to the request's version. The seat's own
// table talk and the game's creation are left out (see notify's Story).
func (s *Seats) stories(ctx context.Context, reqs []notify.StoryRequest, told []int, out []*notify.Story) error {
	ids, seats, actors, uptos := make([]string, len(told)), make([]int32, len(told)), make([]string, len(told)), make([]int64, len(told))
	for j, i := range told {
		ids[j], seats[j], actors[j], uptos[j] = reqs[i].GameID, int32(reqs[i].Seat), pbemevent.SeatActor(reqs[i].Seat), reqs[i].Upto
	}
	lasts, err := evpg.LastActs(ctx, s.pool, ids, actors, uptos, pbemevent.ServicePrefix, pbemevent.MusterAnswers...)
	if err != nil {
		return fmt.Errorf("notify/postgres: stories: %w", err)
	}
	starts, err := s.storyStarts(ctx, "stories", storiesSQL, ids, seats, lasts)
	if err != nil {
		return err
	}
	for _, st := range starts {
		r := reqs[told[st.j-1]]
		st.g.ID = r.GameID
		if err := s.story(ctx, &st.g, r, st.from, out[told[st.j-1]]); err != nil {
			return err
		}
	}
	return nil
}

// storyStart is a row of storiesSQL or chatFromSQL: the request's place j
// (from 1) in told, its game, and the version its story starts after.
type storyStart struct {
	j    int64
	g    projections.Game
	from int64
}

// storyStarts runs query (storiesSQL or chatFromSQL: what names it in
// errors) with args and reads its rows.
func (s *Seats) storyStarts(ctx context.Context, what, query string, args ...any) ([]storyStart, error) {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: %s: %w", what, err)
	}
	starts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (storyStart, error) {
		var st storyStart
		err := r.Scan(&st.j, &st.g.Game, &st.g.Language, &st.g.Players, &st.g.Version, &st.from)
		return st, err
	})
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: %s: %w", what, err)
	}
	return starts, nil
}

// story tells r's story into st: g's history as r.Seat sees it after
// version last up to r.Upto.
func (s *Seats) story(ctx context.Context, g *projections.Game, r notify.StoryRequest, last int64, st *notify.Story) error {
	hist, evs, err := s.histories.seat(ctx, g, r.Seat, last)
	if err != nil {
		return fmt.Errorf("notify/postgres: story of %s seat %d: %w", g.ID, r.Seat, err)
	}
	for i, h := range hist {
		if h.Version > r.Upto {
			break
		}
		acting := pbemevent.ActingSeat(h.Actor, evs[i].Meta.IdempotencyKey)
		if h.Type == pbemevent.TypeCreated || h.Type == pbemevent.TypeLanguage || (h.Type == pbemevent.TypeChat && acting == r.Seat) {
			continue
		}
		st.Events = append(st.Events, notify.StoryEvent{Version: h.Version, Type: h.Type, Actor: h.Actor,
			Seat: notify.TurnSeat(h.Actor, evs[i].Meta.IdempotencyKey, h.Data, len(g.Players)), Summary: h.Summary, Who: h.ActorName,
			Step: h.Step})
	}
	return nil
}

// chatFromSQL selects, for each requested seat ($1, $2: game ids and
// seats), with the request's index, its game row with the language its
// reader reads (the seat's, else the game's, as storiesSQL) and the
// version its table talk was told up to: the later of the last page it
// was shown (seat_visits.seen) and the last table-talk or your-turn email
// it was sent (outbox.event_version, the version such an email told up
// to). The subqueries name the game of the games row, not of unnest, for
// Citus (see gatheredSQL).
const chatFromSQL = `SELECT r.i, g.game, coalesce(nullif(s.language, ''), g.language), g.players, g.version,
  greatest(coalesce((SELECT v.seen FROM seat_visits v WHERE v.game_id = g.id AND v.seat = r.seat), 0),
    coalesce((SELECT max(n.event_version) FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat
      AND n.status = 'sent' AND n.kind IN ('chat', 'your_turn')), 0))
FROM games g
JOIN (SELECT * FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS u(game_id, seat, i)) r ON r.game_id = g.id
LEFT JOIN seats s ON s.game_id = g.id AND s.seat = r.seat
WHERE g.id = ANY ($1::text[])
ORDER BY r.i`

// chatStories reads the story of each table-talk request of reqs listed
// in told into out: the other players' lines the seat was not told yet
// (see chatFromSQL), up to the request's version.
func (s *Seats) chatStories(ctx context.Context, reqs []notify.StoryRequest, told []int, out []*notify.Story) error {
	ids, seats := make([]string, len(told)), make([]int32, len(told))
	for j, i := range told {
		ids[j], seats[j] = reqs[i].GameID, int32(reqs[i].Seat)
	}
	starts, err := s.storyStarts(ctx, "table talk", chatFromSQL, ids, seats)
	if err != nil {
		return err
	}
	for _, st := range starts {
		r := reqs[told[st.j-1]]
		st.g.ID = r.GameID
		hist, evs, err := s.histories.seat(ctx, &st.g, r.Seat, st.from)
		if err != nil {
			return fmt.Errorf("notify/postgres: table talk of %s seat %d: %w", r.GameID, r.Seat, err)
		}
		story := out[told[st.j-1]]
		story.Events = []notify.StoryEvent{} // told, even if empty: nothing new
		for i, h := range hist {
			if h.Version > r.Upto {
				break
			}
			acting := pbemevent.ActingSeat(h.Actor, evs[i].Meta.IdempotencyKey)
			if h.Version <= st.from || h.Type != pbemevent.TypeChat || acting == r.Seat {
				continue
			}
			story.Events = append(story.Events, notify.StoryEvent{Version: h.Version, Type: h.Type, Actor: h.Actor,
				Seat: acting, Summary: h.Summary})
		}
	}
	return nil
}

// SetZone records the time zone a seat's browser reported, which must
// pass notify.CheckZone (api.ZoneRecorder, inbound.Zones): it writes only
// when the zone changed, so a page opened again costs no write. The zone
// is the person's (issue #43): it is recorded on every seat of the seat's
// address, in every game, so that it follows them into the other seats
// they play until they change it (a seat given to another person takes
// that person's zone: projections/postgres, queuePrimary).
func (s *Seats) SetZone(ctx context.Context, gameID string, seat int, zone string) error {
	if _, err := notify.CheckZone(zone); err != nil {
		return err
	}
	_, err := s.pool.Exec(ctx, `UPDATE seats SET time_zone = $3
WHERE ((game_id = $1 AND seat = $2) OR lower(email) = (SELECT lower(m.email) FROM seats m WHERE m.game_id = $1 AND m.seat = $2 AND m.email <> ''))
  AND time_zone <> $3`, gameID, seat, zone)
	if err != nil {
		return fmt.Errorf("notify/postgres: set time zone of %s seat %d: %w", gameID, seat, err)
	}
	return nil
}

// zoneOfSQL is the time zone of seat $2 of game $1, else the one its
// person gave on another seat, else "". Its subqueries name no column of
// another: Citus plans each apart (the seat's, on its game's shard; the
// person's, over every shard), where it refuses a subquery that joins
// seats to seats by address (docs/SCALING.md, "What Citus refused").
const zoneOfSQL = `SELECT coalesce(
  (SELECT nullif(time_zone, '') FROM seats WHERE game_id = $1 AND seat = $2),
  (SELECT o.time_zone FROM seats o WHERE o.time_zone <> '' AND lower(o.email) =
    (SELECT lower(m.email) FROM seats m WHERE m.game_id = $1 AND m.seat = $2 AND m.email <> '') LIMIT 1),
  '')`

// ZoneOf is the time zone of seat of game id, else the one its person
// gave on another seat ("": none known; inbound.Zones).
func (s *Seats) ZoneOf(ctx context.Context, gameID string, seat int) (string, error) {
	var zone string
	err := s.pool.QueryRow(ctx, zoneOfSQL, gameID, seat).Scan(&zone)
	if err != nil {
		return "", fmt.Errorf("notify/postgres: time zone of %s seat %d: %w", gameID, seat, err)
	}
	return zone, nil
}

// round is the engine's summary of the last round ended at or before
// version upto, from the engine events that stand then as seat sees them
// (nil without the game's engine or an ended round): a move taken back is
// not in it, as it is not in the state the play page shows.
func (s *Seats) round(ctx context.Context, gameID string, seat int, upto int64) (*engine.RoundSummary, error) {
	g := projections.Game{ID: gameID}
	err := s.pool.QueryRow(ctx, `SELECT g.game, coalesce(nullif(s.language, ''), g.language), g.players
		FROM games g LEFT JOIN seats s ON s.game_id = g.id AND s.seat = $2 WHERE g.id = $1`, gameID, seat).
		Scan(&g.Game, &g.Language, &g.Players)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: game %s: %w", gameID, err)
	}
	eng, ok := s.histories.Games[g.Game]
	if !ok {
		return nil, nil
	}
	evs, err := s.histories.standing(ctx, gameID, eng, seat, upto)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: round of %s: %w", gameID, err)
	}
	round := engine.LastRound(evs, eng.RoundEnd)
	if round == nil {
		return nil, nil
	}
	return eng.RoundSummary(round, g.Players, g.Language), nil
}
