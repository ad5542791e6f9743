package postgres

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events/pbemevent"
	evpg "pbem/events/postgres"
	"pbem/notify"
	"pbem/projections"
	"pbem/projections/outbox"
)

var _ notify.Freshness = (*Outbox)(nil)

// freshSQL reads, for each claimed row ($1..$4: ids, game ids, seats,
// the rows' event versions), with its
// index: whether the game awaits the seat now, whether a bot plays the
// seat for its person now (seats.bot: the seat then awaits no move of the
// person, issue #43), whether a newer your-turn
// email or reminder to the seat waits (outbox_pending_seat, migration
// 0092; or a your-turn email about a later version the game row owes,
// migration 0101), whether the answer to a reply of the seat that ended
// the muster, about the row's version or a later one, is waiting or sent
// (outbox_pending_seat, outbox_seat_sent: see notify's StaleAnswered),
// whether a game-over email to the seat's address ($5, lower case: the
// row's recipient) is waiting or sent (see notify's StaleOver), and the
// game's version. A game without a row (none is
// removed; only tests write such emails) has no row here and tells no
// news: its emails are fresh. The rows are joined to their games, and the
// subqueries name the game of the games row (see gatheredSQL).
const freshSQL = `SELECT r.i,
  g.status = 'active' AND r.seat = ANY(g.to_move),
  EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.seat = r.seat AND s.bot IS NOT NULL),
  EXISTS (SELECT 1 FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat AND n.status = 'pending'
    AND n.id > r.id AND n.kind IN ('your_turn', 'reminder'))
  OR EXISTS (SELECT 1 FROM json_array_elements(g.turn_mail) t
    WHERE (t->>'seat')::int = r.seat AND (t->>'version')::bigint > r.version),
  EXISTS (SELECT 1 FROM outbox a WHERE a.game_id = g.id AND a.seat = r.seat AND (a.status = 'pending' OR a.status = 'sent')
    AND a.kind = 'reply' AND a.event_version >= r.version AND (a.payload->'answer'->>'muster_over')::boolean),
  EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id AND o.seat = r.seat AND (o.status = 'pending' OR o.status = 'sent')
    AND o.kind = 'game_over' AND lower(o.payload->'to'->>'email') = r.email),
  g.version
FROM games g
JOIN (SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::bigint[], $5::text[]) WITH ORDINALITY AS u(id, game_id, seat, version, email, i)) r
  ON r.game_id = g.id
WHERE g.id = ANY ($2::text[])
ORDER BY r.i`

// gatheredSQL reads, for each claimed table-talk row ($1..$3: ids, game
// ids, seats), with its index: whether an email that asks the seat's move
// waits (it will tell the lines): a your-turn email (in the outbox, or
// owed by the game row, migration 0101), or a round-end email that asks
// the seat, awaited still (told up to the game's version when sent:
// notify.Row.RoundAt); whether an older table-talk row to the seat waits
// (it will tell them), when the last table-talk email of the game went to
// the seat (outbox_seat_sent, migration 0095), and the game's version. See notify.ChatGather. A game without a row has no row here.
// The outer relation is games, and each subquery names g.id: Citus
// refuses a correlated subquery beside a set-returning function in FROM
// (the form these reads had, over unnest), and runs this one on the
// workers that hold the games (docs/SCALING.md, "What Citus refused");
// plain PostgreSQL plans each subquery as before.
const gatheredSQL = `SELECT r.i,
  EXISTS (SELECT 1 FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat AND n.status = 'pending'
    AND (n.kind = 'your_turn' OR (n.kind = 'round_end' AND (n.payload->>'awaited')::boolean AND r.seat = ANY(g.to_move))))
  OR EXISTS (SELECT 1 FROM json_array_elements(g.turn_mail) t WHERE (t->>'seat')::int = r.seat),
  EXISTS (SELECT 1 FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat AND n.status = 'pending'
    AND n.kind = 'chat' AND n.id < r.id),
  (SELECT max(n.sent_at) FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat AND n.status = 'sent'
    AND n.kind = 'chat'),
  g.version
FROM games g
JOIN (SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[]) WITH ORDINALITY AS u(id, game_id, seat, i)) r
  ON r.game_id = g.id
WHERE g.id = ANY ($2::text[])
ORDER BY r.i`

// handoffSQL reads, for each claimed hand-off notice ($1..$3: ids, game
// ids, seats; $4: the notices that are hand-offs, $5: notify.StaleHandoff),
// with its index: whether a newer hand-off notice to the seat is waiting
// or went (it tells this one: notify.StaleHandoff), and the lines of the
// older ones it gathers, one array each, oldest first: those still waiting, or skipped
// for it, after the last one sent to the seat, written within a day (an
// outbox row older than that may be gone, and a hand-off that old is no
// news). The outer relation is games, as in gatheredSQL.
const handoffSQL = `SELECT r.i,
  EXISTS (SELECT 1 FROM outbox n WHERE n.game_id = g.id AND n.seat = r.seat AND n.kind = 'notice'
    AND n.payload->>'notice' = ANY($4::text[]) AND n.id > r.id AND n.status IN ('pending', 'sent')),
  coalesce((SELECT json_agg(coalesce(o.payload->'lines', '[]') ORDER BY o.id) FROM outbox o
    WHERE o.game_id = g.id AND o.seat = r.seat AND o.kind = 'notice' AND o.payload->>'notice' = ANY($4::text[])
      AND o.id < r.id AND o.created_at > now() - interval '1 day'
      AND (o.status = 'pending' OR (o.status = 'skipped' AND o.last_error = $5))
      AND o.id > coalesce((SELECT max(x.id) FROM outbox x WHERE x.game_id = g.id AND x.seat = r.seat
        AND x.kind = 'notice' AND x.payload->>'notice' = ANY($4::text[]) AND x.status = 'sent' AND x.id < r.id), 0)), '[]')
FROM games g
JOIN (SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[]) WITH ORDINALITY AS u(id, game_id, seat, i)) r
  ON r.game_id = g.id
WHERE g.id = ANY ($2::text[])
ORDER BY r.i`

// Freshness implements notify.Freshness with two queries for the batch's
// your-turn emails, reminders, round-end emails, notices and game-over
// emails (whether each seat played a game event of its own after the
// row's version: the event store's LastActs; the game and outbox rows:
// freshSQL), and one for its table talk. A notice or a game-over email
// asks no move: only an answer that tells it folds it; a round-end email
// is folded into the game-over email of its seat.
func (o *Outbox) Freshness(ctx context.Context, rows []notify.Row) ([]notify.News, error) {
	out := make([]notify.News, len(rows))
	n := len(rows)
	ids, games, seats, actors := make([]int64, n), make([]string, n), make([]int32, n), make([]string, n)
	versions, emails := make([]int64, n), make([]string, n)
	if err := o.gathered(ctx, rows, out); err != nil {
		return nil, err
	}
	if err := o.handoffs(ctx, rows, out); err != nil {
		return nil, err
	}
	var asked []int
	for i, r := range rows {
		if !(r.Kind.MayAwait() || r.Kind.Foldable()) || r.Seat < 0 {
			continue
		}
		ids[len(asked)], games[len(asked)], seats[len(asked)], actors[len(asked)] = r.ID, r.GameID, int32(r.Seat), pbemevent.SeatActor(r.Seat)
		versions[len(asked)] = r.EventVersion
		if p, err := notify.DecodePayload(r.Payload); err == nil {
			emails[len(asked)] = strings.ToLower(p.To.Email)
		}
		asked = append(asked, i)
	}
	if len(asked) == 0 {
		return out, nil
	}
	k := len(asked)
	acts, err := evpg.LastActs(ctx, o.pool, games[:k], actors[:k], everything(k), pbemevent.ServicePrefix)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: freshness: %w", err)
	}
	res, err := o.pool.Query(ctx, freshSQL, ids[:k], games[:k], seats[:k], versions[:k], emails[:k])
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: freshness: %w", err)
	}
	var j, version int64
	var awaited, bot, newer, answered, over bool
	if _, err := pgx.ForEachRow(res, []any{&j, &awaited, &bot, &newer, &answered, &over, &version}, func() error {
		nw := &out[asked[j-1]]
		nw.Version = version
		kind := rows[asked[j-1]].Kind
		switch {
		case kind == outbox.RoundEnd && over:
			nw.Stale = notify.StaleOver
		case !kind.MayAwait():
			// A notice or a game-over email: it asks no move.
		case !awaited:
			nw.Stale = notify.StaleNotAwaited
		case bot:
			nw.Stale = notify.StaleBot
		case acts[j-1] > rows[asked[j-1]].EventVersion:
			nw.Stale = notify.StalePlayed
		case newer:
			nw.Stale = notify.StaleSuperseded
		}
		if nw.Stale == "" && answered && kind.Foldable() {
			nw.Stale = notify.StaleAnswered
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("notify/postgres: freshness: %w", err)
	}
	return out, nil
}

// gathered fills in out the News of the table-talk rows of rows.
func (o *Outbox) gathered(ctx context.Context, rows []notify.Row, out []notify.News) error {
	var ids []int64
	var games []string
	var seats []int32
	var asked []int
	for i, r := range rows {
		if r.Kind.Gathered() && r.Seat >= 0 {
			ids, games, seats = append(ids, r.ID), append(games, r.GameID), append(seats, int32(r.Seat))
			asked = append(asked, i)
		}
	}
	if len(asked) == 0 {
		return nil
	}
	res, err := o.pool.Query(ctx, gatheredSQL, ids, games, seats)
	if err != nil {
		return fmt.Errorf("notify/postgres: gathered: %w", err)
	}
	var j, version int64
	var folded, older bool
	var last *time.Time
	if _, err := pgx.ForEachRow(res, []any{&j, &folded, &older, &last, &version}, func() error {
		nw := &out[asked[j-1]]
		nw.Version = version
		if last != nil {
			nw.LastSent = *last
		}
		switch {
		case folded:
			nw.Stale = notify.StaleFolded
		case older:
			nw.Stale = notify.StaleGathered
		}
		return nil
	}); err != nil {
		return fmt.Errorf("notify/postgres: gathered: %w", err)
	}
	return nil
}

// handoffs fills in out the News of the hand-off notices of rows
// (projections.Handoff): skipped for a newer one, or the lines of the
// older ones they gather.
func (o *Outbox) handoffs(ctx context.Context, rows []notify.Row, out []notify.News) error {
	var ids []int64
	var games []string
	var seats []int32
	var asked []int
	for i, r := range rows {
		if r.Kind != outbox.Notice || r.Seat < 0 {
			continue
		}
		if p, err := notify.DecodePayload(r.Payload); err != nil || !projections.Handoff(p.Notice) {
			continue
		}
		ids, games, seats = append(ids, r.ID), append(games, r.GameID), append(seats, int32(r.Seat))
		asked = append(asked, i)
	}
	if len(asked) == 0 {
		return nil
	}
	res, err := o.pool.Query(ctx, handoffSQL, ids, games, seats, []string{projections.NoticeBot, projections.NoticeBotBack}, notify.StaleHandoff)
	if err != nil {
		return fmt.Errorf("notify/postgres: handoffs: %w", err)
	}
	var j int64
	var newer bool
	var earlier [][]string
	if _, err := pgx.ForEachRow(res, []any{&j, &newer, &earlier}, func() error {
		nw := &out[asked[j-1]]
		if newer {
			nw.Stale = notify.StaleHandoff
			return nil
		}
		nw.Earlier = nil
		for _, ls := range earlier {
			nw.Earlier = append(nw.Earlier, ls...)
		}
		return nil
	}); err != nil {
		return fmt.Errorf("notify/postgres: handoffs: %w", err)
	}
	return nil
}

// everything is n upper versions that leave no event out (LastActs).
func everything(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = math.MaxInt64
	}
	return out
}
