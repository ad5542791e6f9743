package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/projections/outbox"
)

// dueTurnsSQL takes the active games owing a your-turn email whose grace
// has ended ($1: now in microseconds since 1970), at most $2, skipping the
// games another transaction holds (a move, another worker). It reads them
// through games_active and filters turn_due in the heap: no index keys
// turn_due, which every move changes (migration 0101).
const dueTurnsSQL = `SELECT id, turn_mail FROM games
WHERE status = 'active' AND turn_due <= $1
ORDER BY turn_due LIMIT $2 FOR UPDATE SKIP LOCKED`

// oweTurns writes the outbox rows of the your-turn emails due at now that
// the games rows owe (games.turn_mail, migration 0101), at most limit
// games' worth, and removes them from the rows, in one transaction: a
// crash before its commit leaves them owed, after it they are outbox rows
// like any other, sent once. It returns how many rows it wrote.
func (o *Outbox) oweTurns(ctx context.Context, now time.Time, limit int) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, o.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, dueTurnsSQL, now.UnixMicro(), limit)
		if err != nil {
			return err
		}
		var ids []string
		var rests []*string
		var due []outbox.Row
		var id string
		var mail []byte
		if _, err := pgx.ForEachRow(rows, []any{&id, &mail}, func() error {
			d, rest, err := outbox.TurnRows(id, mail, now)
			if err != nil {
				return err
			}
			due = append(due, d...)
			ids = append(ids, id)
			if rest != nil {
				rests = append(rests, new(string(rest)))
			} else {
				rests = append(rests, nil)
			}
			return nil
		}); err != nil || len(ids) == 0 {
			return err
		}
		if len(due) > 0 {
			sql, args, err := outbox.Insert(due...)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, sql, args...); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE games g SET turn_mail = x.rest, turn_due = turn_due(x.rest)
FROM unnest($1::text[], $2::json[]) AS x(id, rest) WHERE g.id = x.id`, ids, rests); err != nil {
			return err
		}
		n = len(due)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("notify/postgres: owed your-turn emails: %w", err)
	}
	return n, nil
}
