package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events"
)

// The reads below answer the read side's questions about a few events
// without reading whole streams: the version, the time or the type of an
// event the read models point at. They are the store's, so that the events
// table meets SQL in this package only (cmd/pbem/layering_test.go,
// TestOnlyTheStoreReadsEvents). Each takes q, a pool or a transaction
// (pgxpool.Pool and pgx.Tx implement Querier), and only reads.

// Querier is what the lookups, and the store's own reads while it
// appends, need of a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// readAtSQL selects the events at the given versions ($1 streams, $2
// versions).
const readAtSQL = selectEvents + ` WHERE (stream, version) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))`

// ReadAt returns, for each i, the event of streams[i] at version
// versions[i], archived or not; an event that does not exist is left zero
// (Version 0).
func ReadAt(ctx context.Context, q Querier, streams []string, versions []int64) ([]events.Event, error) {
	out := make([]events.Event, len(streams))
	if len(streams) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, readAtSQL, streams, versions)
	if err != nil {
		return nil, fmt.Errorf("events/postgres: read at versions: %w", err)
	}
	evs, err := scanEvents(rows)
	if err == nil && len(evs) < len(streams) {
		evs, err = withArchivedAt(ctx, q, streams, versions, evs)
	}
	if err == nil {
		err = linkPrev(ctx, q, evs)
	}
	if err != nil {
		return nil, fmt.Errorf("events/postgres: read at versions: %w", err)
	}
	at := make(map[streamVersion]events.Event, len(evs))
	for _, e := range evs {
		at[streamVersion{e.Stream, e.Version}] = e
	}
	for i := range out {
		out[i] = at[streamVersion{streams[i], versions[i]}]
	}
	return out, nil
}

// lastActsSQL selects, for each request ($1 streams, $2 actors, $3 upper
// versions, $4 the type prefix left out, $5 the types of that prefix kept)
// with its index, the version of the actor's last event up to the version; a
// request whose stream has no event has no row. The index on (stream,
// version) is read backwards from the upper version, stopping at the actor's
// last event. The requests are joined to their stream's first event, so that
// the correlated subquery names the stream of a row of events, not of
// unnest: Citus refuses a correlated subquery beside a set-returning
// function in FROM, and runs this one on the workers that hold the streams
// (docs/SCALING.md, "What Citus refused").
const lastActsSQL = `SELECT r.i, coalesce((SELECT max(e.version) FROM events e
    WHERE e.stream = h.stream AND e.actor = r.actor AND e.version <= r.upto AND (NOT starts_with(e.type, $4) OR e.type = ANY ($5::text[]))), 0)
FROM events h
JOIN (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS u(stream, actor, upto, i)) r ON r.stream = h.stream
WHERE h.version = 1 AND h.stream = ANY ($1::text[])`

// LastActs returns, for each i, the version of the last event of
// streams[i] up to version uptos[i] whose actor is actors[i] and whose type
// does not begin with skip or is one of keep, or 0 when there is none.
// It reads the table only: the middle of an archived stream is not looked
// at (the archive takes games finished long before, which owe no email).
func LastActs(ctx context.Context, q Querier, streams, actors []string, uptos []int64, skip string, keep ...string) ([]int64, error) {
	if len(streams) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, lastActsSQL, streams, actors, uptos, skip, keep)
	if err != nil {
		return nil, fmt.Errorf("events/postgres: last acts: %w", err)
	}
	out := make([]int64, len(streams))
	var i, v int64
	if _, err := pgx.ForEachRow(rows, []any{&i, &v}, func() error {
		out[i-1] = v
		return nil
	}); err != nil {
		return nil, fmt.Errorf("events/postgres: last acts: %w", err)
	}
	return out, nil
}

// FirstOfLast returns the version of the first of stream's last n events
// of type typ recorded after after, or 0 when there is none. It reads the
// table only, as LastActs does.
func FirstOfLast(ctx context.Context, q Querier, stream, typ string, after time.Time, n int) (int64, error) {
	var first *int64
	if err := q.QueryRow(ctx, `SELECT min(version) FROM (SELECT version FROM events
    WHERE stream = $1 AND type = $2 AND recorded_at > $3 ORDER BY version DESC LIMIT $4) c`, stream, typ, after, n).Scan(&first); err != nil {
		return 0, fmt.Errorf("events/postgres: first of the last %d %s of %s: %w", n, typ, stream, err)
	}
	if first == nil {
		return 0, nil
	}
	return *first, nil
}
