package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/events/pbemevent"
	"pbem/notify"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Seats reads, for an email being rendered, its seat's time zone, its
// history since it last heard and the summaries of the rounds it tells
// (told from the events: Histories), and records the time zone a play
// page reported (seats.time_zone, migration 0060).
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
// seats and the requests' versions), with the request's index, its game
// row with the language its reader reads (the seat's, else the game's),
// and where what the seat was told by email ends: the version the seat's
// last your-turn, round-end or game-over email that went out told up to
// (outbox.event_version; outbox_seat_sent, migration 0095), and the one
// its last table-talk email told up to, each at or before the request's
// version (0: none). The subqueries name the game of the games row, not
// of unnest, for Citus (see gatheredSQL).
const storiesSQL = `SELECT r.i, g.game, coalesce(nullif(s.language, ''), g.language), g.players, g.version,
  coalesce((SELECT max(n.event_version) FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat AND n.status = 'sent'
    AND n.kind IN ('your_turn', 'round_end', 'game_over') AND n.event_version <= r.upto), 0),
  coalesce((SELECT max(n.event_version) FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat AND n.status = 'sent'
    AND n.kind = 'chat' AND n.event_version <= r.upto), 0)
FROM games g
JOIN (SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[]) WITH ORDINALITY AS u(game_id, seat, upto, i)) r ON r.game_id = g.id
JOIN seats s ON s.game_id = g.id AND s.seat = r.seat
WHERE g.id = ANY ($1::text[])
ORDER BY r.i`

// Stories implements notify.SeatReader with one query for the zones, one
// for the stories and one for the table talk, then the events of each
// game told. An unknown seat has no zone and no story.
func (s *Seats) Stories(ctx context.Context, reqs []notify.StoryRequest) ([]*notify.Story, error) {
	out := make([]*notify.Story, len(reqs))
	ids, seats := make([]string, len(reqs)), make([]int32, len(reqs))
	var told, talk []int // the requests that tell a story, and table talk
	for i, r := range reqs {
		out[i] = &notify.Story{}
		ids[i], seats[i] = r.GameID, int32(r.Seat)
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
	return out, nil
}

// stories reads the story of each request of reqs listed in told into
// out (see notify.Story): where what the seat was told ends (storiesSQL,
// and the request's After), then its history after that (story).
func (s *Seats) stories(ctx context.Context, reqs []notify.StoryRequest, told []int, out []*notify.Story) error {
	ids, seats, uptos := make([]string, len(told)), make([]int32, len(told)), make([]int64, len(told))
	for j, i := range told {
		ids[j], seats[j], uptos[j] = reqs[i].GameID, int32(reqs[i].Seat), reqs[i].Upto
	}
	starts, err := s.storyStarts(ctx, "stories", storiesSQL, ids, seats, uptos)
	if err != nil {
		return err
	}
	for _, st := range starts {
		r := reqs[told[st.j-1]]
		st.g.ID = r.GameID
		st.from = max(st.from, r.After)
		if err := s.story(ctx, &st.g, r, st, out[told[st.j-1]]); err != nil {
			return err
		}
	}
	return nil
}

// storyStart is a row of storiesSQL or chatFromSQL: the request's place j
// (from 1) in told, its game, the version what the seat was told ends at,
// and (storiesSQL) the one its last table-talk email told up to.
type storyStart struct {
	j    int64
	g    projections.Game
	from int64
	chat int64
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
		err := r.Scan(&st.j, &st.g.Game, &st.g.Language, &st.g.Players, &st.g.Version, &st.from, &st.chat)
		return st, err
	})
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: %s: %w", what, err)
	}
	return starts, nil
}

// story tells r's story into st: g's history as r.Seat sees it after the
// later of start.from (what it was told by email) and its last move after
// that, up to r.Upto (see notify.Story), and the rounds it tells.
func (s *Seats) story(ctx context.Context, g *projections.Game, r notify.StoryRequest, start storyStart, st *notify.Story) error {
	hist, evs, err := s.histories.seat(ctx, g, r.Seat, start.from)
	if err != nil {
		return fmt.Errorf("notify/postgres: story of %s seat %d: %w", g.ID, r.Seat, err)
	}
	from, me := start.from, pbemevent.SeatActor(r.Seat)
	for _, h := range hist {
		if h.Version <= r.Upto && h.Actor == me && pbemevent.EndsStory(h.Type) && !h.Step {
			from = h.Version // its last move or muster answer: it knows what it did
		}
	}
	st.AfterEmail = from == start.from && from > 0
	st.Events = []notify.StoryEvent{} // told, even if empty: nothing new
	for i, h := range hist {
		if h.Version > r.Upto {
			break
		}
		acting := pbemevent.ActingSeat(h.Actor, evs[i].Meta.IdempotencyKey)
		if h.Version <= from || h.Type == pbemevent.TypeCreated || h.Type == pbemevent.TypeLanguage ||
			(h.Type == pbemevent.TypeChat && (acting == r.Seat || h.Version <= start.chat)) {
			continue
		}
		st.Events = append(st.Events, notify.StoryEvent{Version: h.Version, Type: h.Type, Actor: h.Actor,
			Seat: notify.TurnSeat(h.Actor, evs[i].Meta.IdempotencyKey, h.Data, len(g.Players)), Summary: h.Summary, Who: h.ActorName,
			Step: h.Step})
	}
	if r.Kind == outbox.RoundEnd || r.Kind == outbox.GameOver {
		if st.Rounds, err = s.rounds(ctx, g, r, start.from); err != nil {
			return err
		}
	}
	return nil
}

// rounds are the summaries of the rounds r tells (notify.Story.Rounds),
// in g's language: for a round-end email, the last round ended at or
// before its round's end (r.RoundAt, else r.Upto); for a game-over email,
// every round that ended after told (the version what the seat was told
// by email ends at). None without the game's engine.
func (s *Seats) rounds(ctx context.Context, g *projections.Game, r notify.StoryRequest, told int64) ([]*engine.RoundSummary, error) {
	eng, ok := s.histories.Games[g.Game]
	if !ok {
		return nil, nil
	}
	upto := r.Upto
	if r.Kind == outbox.RoundEnd && r.RoundAt > 0 {
		upto = r.RoundAt
	}
	ended, err := s.histories.endedRounds(ctx, g, eng, r.Seat, upto)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: rounds of %s: %w", g.ID, err)
	}
	if r.Kind == outbox.RoundEnd && len(ended) > 0 {
		ended = ended[len(ended)-1:]
	}
	var out []*engine.RoundSummary
	for _, e := range ended {
		if r.Kind == outbox.GameOver && e.end <= told {
			continue
		}
		if sum := eng.RoundSummary(e.evs, g.Players, g.Language); sum != nil {
			out = append(out, sum)
		}
	}
	return out, nil
}

// chatFromSQL selects, for each requested seat ($1, $2: game ids and
// seats), with the request's index, its game row with the language its
// reader reads (the seat's, else the game's, as storiesSQL) and the
// version its table talk was told up to: the later of the last page it
// was shown (seat_visits.seen) and the last table-talk email or email of
// a story (your-turn, round-end, game-over) it was sent (outbox.event_version,
// the version such an email told up to); then 0 (storyStart.chat). The
// subqueries name the game of the games row, not of unnest, for Citus
// (see gatheredSQL).
const chatFromSQL = `SELECT r.i, g.game, coalesce(nullif(s.language, ''), g.language), g.players, g.version,
  greatest(coalesce((SELECT v.seen FROM seat_visits v WHERE v.game_id = g.id AND v.seat = r.seat), 0),
    coalesce((SELECT max(n.event_version) FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat
      AND n.status = 'sent' AND n.kind IN ('chat', 'your_turn', 'round_end', 'game_over')), 0)),
  0
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
