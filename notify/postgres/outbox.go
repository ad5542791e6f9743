package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/notify"
	"pbem/projections/outbox"
)

// Outbox is the outbox table as notify.Worker uses it.
type Outbox struct {
	pool *pgxpool.Pool
	// turns tells the games whose rows owe your-turn emails, to write
	// their payloads when they are claimed (WithTurns).
	turns Histories
}

var _ notify.OutboxStore = (*Outbox)(nil)

// NewOutbox returns an Outbox on pool. Its Claim writes the your-turn
// emails the games rows owe only once it has the games' engines and
// events (WithTurns).
func NewOutbox(pool *pgxpool.Pool) *Outbox { return &Outbox{pool: pool} }

// WithTurns gives o the games' engines and events, from which Claim
// writes the payloads of the your-turn emails the games rows owe
// (projections.TurnRow), and returns o.
func (o *Outbox) WithTurns(h Histories) *Outbox {
	o.turns = h
	return o
}

// dueSQL lists, without locking them, up to $2 rows due at $1 that no
// worker holds: the candidates of a claim.
const dueSQL = `
SELECT game_id, id FROM outbox
WHERE status = 'pending' AND next_attempt_at <= $1 AND (leased_until IS NULL OR leased_until <= $1)
ORDER BY next_attempt_at, id
LIMIT $2`

// leaseSQL leases the candidates ($3 their games, $4 their ids) that are
// still due and free at $1, for $2 microseconds. The condition is checked
// again on each row: a row another claim leased since it was listed (this
// statement waits for that claim's short transaction) no longer qualifies
// and is left out, so each row goes to one claim. The games name the
// shards on Citus; the ids alone pick the rows. The lease is a column of
// its own, indexed by nothing, so the update is HOT (migration 0083).
const leaseSQL = `
UPDATE outbox o
SET leased_until = $1 + $2 * interval '1 microsecond', attempts = o.attempts + 1
WHERE o.game_id = ANY($3) AND o.id = ANY($4)
  AND o.status = 'pending' AND o.next_attempt_at <= $1 AND (o.leased_until IS NULL OR o.leased_until <= $1)
RETURNING o.id, o.game_id, coalesce(o.seat, -1), o.kind, o.payload, coalesce(o.event_version, 0), o.created_at, o.attempts`

// claimRounds bounds the rounds of a claim whose candidates other claims
// keep taking first.
const claimRounds = 4

// Claim implements notify.OutboxStore. It first writes the outbox rows of
// the your-turn emails the games rows owe and that are due (oweTurns).
// Then it lists due rows without a lock, and leases them by game and id
// (dueSQL, leaseSQL): no row lock is taken
// over the rows of many games, which Citus refuses across shards
// (docs/SCALING.md, "The claims over all games"). When another claim took
// some candidates first, it lists again for the rest, so parallel senders
// each get a batch of their own, as with FOR UPDATE SKIP LOCKED.
func (o *Outbox) Claim(ctx context.Context, now time.Time, limit int, lease time.Duration) ([]notify.Row, error) {
	if _, err := o.oweTurns(ctx, now, limit); err != nil {
		return nil, err
	}
	var out []notify.Row
	for range claimRounds {
		games, ids, err := o.due(ctx, now, limit-len(out))
		if err != nil || len(ids) == 0 {
			return out, err
		}
		got, err := o.lease(ctx, now, lease, games, ids)
		out = append(out, got...)
		if err != nil || len(got) == len(ids) {
			return out, err
		}
	}
	return out, nil
}

// due lists up to limit candidates of a claim.
func (o *Outbox) due(ctx context.Context, now time.Time, limit int) (games []string, ids []int64, err error) {
	rows, err := o.pool.Query(ctx, dueSQL, now, limit)
	if err != nil {
		return nil, nil, fmt.Errorf("notify/postgres: claim: %w", err)
	}
	var game string
	var id int64
	_, err = pgx.ForEachRow(rows, []any{&game, &id}, func() error {
		games, ids = append(games, game), append(ids, id)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("notify/postgres: claim: %w", err)
	}
	return games, ids, nil
}

// lease leases the candidates still free and returns them.
func (o *Outbox) lease(ctx context.Context, now time.Time, lease time.Duration, games []string, ids []int64) ([]notify.Row, error) {
	rows, err := o.pool.Query(ctx, leaseSQL, now, lease.Microseconds(), games, ids)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: claim: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (notify.Row, error) {
		var x notify.Row
		var kind string
		var payload []byte
		err := r.Scan(&x.ID, &x.GameID, &x.Seat, &kind, &payload, &x.EventVersion, &x.CreatedAt, &x.Attempts)
		x.Kind, x.Payload = outbox.Kind(kind), json.RawMessage(payload)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: claim: %w", err)
	}
	return out, nil
}

// finishSQL records many outcomes in one statement. A row already sent
// (by a worker whose lease had run out) stays sent.
const finishSQL = `
UPDATE outbox o SET
    status = x.status,
    message_id = coalesce(nullif(x.message_id, ''), o.message_id),
    sent_at = CASE WHEN x.status IN ('sent', 'skipped') THEN $1 ELSE o.sent_at END,
    last_error = nullif(x.error, ''),
    next_attempt_at = CASE WHEN x.status = 'pending' THEN x.next_at ELSE o.next_attempt_at END,
    event_version = CASE WHEN x.status = 'sent' AND x.version > 0 THEN x.version ELSE o.event_version END,
    leased_until = NULL
FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::bigint[])
    AS x(id, status, message_id, error, next_at, version)
WHERE o.id = x.id AND o.status <> 'sent'`

// Finish implements notify.OutboxStore.
func (o *Outbox) Finish(ctx context.Context, now time.Time, outcomes []notify.Outcome) error {
	if len(outcomes) == 0 {
		return nil
	}
	n := len(outcomes)
	ids, st, mid, errs, next := make([]int64, n), make([]string, n), make([]string, n), make([]string, n), make([]time.Time, n)
	versions := make([]int64, n)
	for i, x := range outcomes {
		switch x.Status {
		case notify.Sent, notify.Skipped, notify.Failed, notify.Pending:
		default:
			return fmt.Errorf("notify/postgres: finish: row %d: bad status %q", x.ID, x.Status)
		}
		ids[i], st[i], mid[i], errs[i], next[i], versions[i] = x.ID, string(x.Status), x.MessageID, x.Error, x.NextAttempt, x.EventVersion
		if x.Status == notify.Pending && x.NextAttempt.IsZero() {
			next[i] = now
		}
	}
	if _, err := o.pool.Exec(ctx, finishSQL, now, ids, st, mid, errs, next, versions); err != nil {
		return fmt.Errorf("notify/postgres: finish: %w", err)
	}
	return nil
}

// releaseSQL gives claimed rows back, due again at once (at $1 at the latest), the claim not counted.
// The attempts column identifies the claim: a row another worker claimed
// since (after the lease ran out) has more attempts and is left alone.
const releaseSQL = `
UPDATE outbox o SET next_attempt_at = least(o.next_attempt_at, $1), leased_until = NULL, attempts = o.attempts - 1
FROM unnest($2::bigint[], $3::int[]) AS x(id, attempts)
WHERE o.id = x.id AND o.attempts = x.attempts AND o.status = 'pending'`

// Release implements notify.OutboxStore.
func (o *Outbox) Release(ctx context.Context, now time.Time, rows []notify.Row) error {
	if len(rows) == 0 {
		return nil
	}
	ids, attempts := make([]int64, len(rows)), make([]int32, len(rows))
	for i, r := range rows {
		ids[i], attempts[i] = r.ID, int32(r.Attempts)
	}
	if _, err := o.pool.Exec(ctx, releaseSQL, now, ids, attempts); err != nil {
		return fmt.Errorf("notify/postgres: release: %w", err)
	}
	return nil
}

// Failed implements notify.OutboxStore.
func (o *Outbox) Failed(ctx context.Context, gameID string) ([]notify.FailedEmail, error) {
	rows, err := o.pool.Query(ctx, `
SELECT id, coalesce(seat, -1), kind, coalesce(payload->'to'->>'email', ''), status, attempts, coalesce(last_error, ''),
    CASE WHEN status = 'pending' THEN greatest(next_attempt_at, leased_until) END, created_at
FROM outbox WHERE game_id = $1 AND (status = 'failed' OR (status = 'pending' AND last_error IS NOT NULL))
ORDER BY id DESC`, gameID)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: failed emails: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (notify.FailedEmail, error) {
		var f notify.FailedEmail
		var kind, status string
		err := r.Scan(&f.ID, &f.Seat, &kind, &f.To, &status, &f.Attempts, &f.LastError, &f.NextAttempt, &f.CreatedAt)
		f.Kind, f.Status = outbox.Kind(kind), notify.EmailFailed
		if status == string(notify.Pending) {
			f.Status = notify.EmailWaiting
		}
		return f, err
	})
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: failed emails: %w", err)
	}
	return out, nil
}
