package postgres

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events"
	"pbem/projections"
	"pbem/projections/outbox"
	projpg "pbem/projections/postgres"
)

// dueTurnsSQL lists, without locking them, the active games owing a
// your-turn email whose grace has ended ($1: now in microseconds since
// 1970), at most $2, with what they owe as text. It reads them through
// games_active and filters turn_due in the heap: no index keys turn_due,
// which every move changes (migration 0101).
const dueTurnsSQL = `SELECT id, turn_mail::text FROM games
WHERE status = 'active' AND turn_due <= $1
ORDER BY turn_due LIMIT $2`

// takeTurnsSQL leaves in each listed game ($1 ids, $2 what it owed when
// listed, as text, $3 what it owes after) what it owes after, if it still
// owes what it owed when listed, and returns the games it changed. A game
// a move or another worker changed since (this statement waits for that
// transaction) is left out and listed again by the next claim, so each
// owed email becomes one outbox row. It locks no row of a game it does not
// change: Citus runs no FOR UPDATE over the shards of many games
// (docs/SCALING.md, "The claims over all games"); $1 names the shards.
const takeTurnsSQL = `UPDATE games g SET turn_mail = x.rest, turn_due = turn_due(x.rest)
FROM unnest($1::text[], $2::text[], $3::json[]) AS x(id, owed, rest)
WHERE g.id = ANY($1) AND g.id = x.id AND g.turn_mail::text = x.owed
RETURNING g.id`

// oweTurns writes the outbox rows of the your-turn emails due at now that
// the games rows owe (games.turn_mail, migrations 0101 and 0105), at most
// limit games' worth, and removes them from the rows, in one transaction:
// a crash before its commit leaves them owed, after it they are outbox
// rows like any other, sent once. Each row's payload is written here,
// from the game as it stands (turnRows). It returns how many rows it
// wrote.
func (o *Outbox) oweTurns(ctx context.Context, now time.Time, limit int) (int, error) {
	rows, err := o.pool.Query(ctx, dueTurnsSQL, now.UnixMicro(), limit)
	if err != nil {
		return 0, fmt.Errorf("notify/postgres: owed your-turn emails: %w", err)
	}
	var ids, oweds []string
	var rests []*string
	due := map[string][]outbox.Turn{}
	var id, owed string
	if _, err := pgx.ForEachRow(rows, []any{&id, &owed}, func() error {
		d, rest, err := outbox.DueTurns(id, []byte(owed), now)
		if err != nil {
			return err
		}
		due[id] = d
		ids, oweds = append(ids, id), append(oweds, owed)
		if rest != nil {
			rests = append(rests, new(string(rest)))
		} else {
			rests = append(rests, nil)
		}
		return nil
	}); err != nil || len(ids) == 0 {
		if err != nil {
			return 0, fmt.Errorf("notify/postgres: owed your-turn emails: %w", err)
		}
		return 0, nil
	}
	written := map[string][]outbox.Row{}
	for _, id := range ids {
		if written[id], err = o.turnRows(ctx, id, due[id]); err != nil {
			return 0, fmt.Errorf("notify/postgres: owed your-turn emails: %w", err)
		}
	}
	n := 0
	err = pgx.BeginFunc(ctx, o.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, takeTurnsSQL, ids, oweds, rests)
		if err != nil {
			return err
		}
		taken, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		var out []outbox.Row
		for _, id := range ids { // in the listed order, oldest due first
			if slices.Contains(taken, id) {
				out = append(out, written[id]...)
			}
		}
		if len(out) == 0 {
			return nil
		}
		sql, args, err := outbox.Insert(out...)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, sql, args...); err != nil {
			return err
		}
		n = len(out)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("notify/postgres: owed your-turn emails: %w", err)
	}
	return n, nil
}

// turnRows is the outbox rows of turns, the your-turn emails game id owes
// that are due, each built from the game as it stands (projections.TurnRow):
// its row with its state snapshot, then its events from the snapshot's or
// the owing append's, whichever is first (projections.TurnEvents), read
// outside the claim's transaction. A move
// made since the row was listed changes what the row owes (turn_mail_next
// rewrites it), so takeTurnsSQL then leaves the game out and the next
// claim builds its emails again. A turn a previous release owed with its
// payload needs neither.
func (o *Outbox) turnRows(ctx context.Context, id string, turns []outbox.Turn) ([]outbox.Row, error) {
	if len(turns) == 0 {
		return nil, nil
	}
	g, evs := &projections.Game{ID: id}, []events.Event(nil)
	if slices.ContainsFunc(turns, func(t outbox.Turn) bool { return t.Payload == nil }) {
		if o.turns.Events == nil || o.turns.Games == nil {
			return nil, fmt.Errorf("game %s owes your-turn emails and the outbox has no engines to write them (Outbox.WithTurns)", id)
		}
		var err error
		if g, err = projpg.New(o.pool).Game(ctx, id); err != nil {
			return nil, err
		}
		from := g.Version + 1
		for _, t := range turns {
			from = min(from, projections.TurnEvents(g, t))
		}
		if evs, err = o.turns.Events.ReadStream(ctx, id, from); err != nil {
			return nil, err
		}
	}
	var out []outbox.Row
	for _, t := range turns {
		r, ok, err := projections.TurnRow(o.turns.Games, g, evs, t)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}
