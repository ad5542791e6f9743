package postgres

import (
	"context"
	"fmt"
	"time"
)

// DefaultOutboxRetention is how long sent emails stay in the outbox
// (PBEM_OUTBOX_RETENTION): long enough to answer "did my invitation go
// out?", short enough that a finished game stops costing their rows.
const DefaultOutboxRetention = 30 * 24 * time.Hour

// purgeSQL removes up to $2 outbox rows sent (or skipped by the
// recipient's preference) before $1. Pending and failed rows stay: the
// admin lists failed ones.
const purgeSQL = `DELETE FROM outbox WHERE id IN (
	SELECT id FROM outbox WHERE status IN ('sent', 'skipped') AND sent_at < $1 LIMIT $2)`

// PurgeSent removes the outbox rows sent before before, in chunks of limit
// rows (one transaction each, so that a purge never holds many locks), and
// returns how many it removed. limit <= 0 means 1000.
func (o *Outbox) PurgeSent(ctx context.Context, before time.Time, limit int) (int64, error) {
	if limit <= 0 {
		limit = 1000
	}
	var total int64
	for {
		tag, err := o.pool.Exec(ctx, purgeSQL, before, limit)
		if err != nil {
			return total, fmt.Errorf("notify/postgres: purge sent emails: %w", err)
		}
		total += tag.RowsAffected()
		if tag.RowsAffected() < int64(limit) {
			return total, nil
		}
	}
}
