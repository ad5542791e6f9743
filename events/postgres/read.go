package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"pbem/events"
)

// selectEvents is the column list scanEvents reads. The table stores no
// prev_hash (migration 0091): linkPrev tells it from the event before.
const selectEvents = `SELECT position, stream, version, type, data, actor, request_id, idempotency_key,
	recorded_at, hash FROM events`

// ReadStream implements events.Store.ReadStream. A stream needs no
// watermark: version n+1 is only written once version n has committed.
// The event before from is read too, for the first prev_hash.
func (s *Store) ReadStream(ctx context.Context, stream string, from int64) ([]events.Event, error) {
	rows, err := s.pool.Query(ctx, selectEvents+` WHERE stream = $1 AND version >= $2 ORDER BY version`, stream, from-1)
	if err != nil {
		return nil, fmt.Errorf("events/postgres: read stream: %w", err)
	}
	evs, err := scanEvents(rows)
	if err == nil && hasHole(evs, from) {
		evs, err = fillFromArchive(ctx, s.pool, stream, max(from-1, 1), evs)
	}
	if err != nil {
		return nil, err
	}
	if err := linkPrev(ctx, s.pool, evs); err != nil {
		return nil, err
	}
	if len(evs) > 0 && evs[0].Version < from {
		evs = evs[1:]
	}
	return evs, nil
}

// readAllSQL returns the events after $1 of transactions that ended before
// the statement's snapshot (see the package doc), positions being shifted
// by the database's xid shift (migration 0005), then a last row that is no
// event: the watermark as its position, an empty stream, and as its
// version 1 if an archived stream has positions after $1
// (withArchivedPositions then reads those below the page's end), else 0.
// The subquery names no column of mark and selects a column: Citus refuses
// a correlated subquery beside a CTE, and reads an empty select list back
// as a record it cannot type.
//
// The watermark is the oldest transaction still running at the snapshot
// (pg_snapshot_xip), or the snapshot's xmax when none runs, ignoring the
// transactions that pg_stat_activity shows in other databases of the server:
// they never write this table, and a long one (another application's, or
// another test database's) would otherwise hold readers back. A transaction
// pg_stat_activity does not show (ended since, or hidden from this role)
// counts, which errs on the side of waiting. The snapshot, its xip list and
// the events all come from the one statement, hence the one snapshot.
const readAllSQL = `
WITH snap AS MATERIALIZED (SELECT pg_current_snapshot() AS s),
mark AS MATERIALIZED (
	SELECT (LEAST(pg_snapshot_xmax(s), (
		SELECT min(x) FROM pg_snapshot_xip(s) AS x
		WHERE x::xid NOT IN (SELECT backend_xid FROM pg_stat_activity
		                     WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database())
	))::text::bigint + (SELECT shift FROM events_xid_shift)) * 10000 AS below FROM snap
)
(` + selectEvents + `
	WHERE position > $1 AND position < (SELECT below FROM mark)
	ORDER BY position LIMIT $2)
UNION ALL
SELECT below, '', (EXISTS (SELECT 1 FROM archived_streams
	WHERE int8range(min_position, max_position, '[]') && int8range($1, NULL, '()')))::int::bigint,
	'', 'null'::json, '', '', '', timestamptz 'epoch', ''::bytea FROM mark
ORDER BY position`

// ReadAll implements events.Store.ReadAll with the transaction-id watermark
// (see the package doc): it returns only events of transactions older than
// every transaction still running on the server. It returns an *events.Error
// with CodeInvalid when limit is not positive.
func (s *Store) ReadAll(ctx context.Context, after int64, limit int) ([]events.Event, error) {
	if limit <= 0 {
		return nil, events.Errorf(events.CodeInvalid, "limit %d is not positive", limit)
	}
	if _, err := s.checkClock(ctx); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, readAllSQL, after, limit)
	if err != nil {
		return nil, fmt.Errorf("events/postgres: read all: %w", err)
	}
	evs, err := scanEvents(rows)
	if err == nil && (len(evs) == 0 || evs[len(evs)-1].Stream != "") {
		err = errors.New("events/postgres: read all: no watermark row")
	}
	if err == nil {
		evs, err = s.withArchivedPositions(ctx, after, limit, evs)
	}
	if err == nil {
		err = linkPrev(ctx, s.pool, evs)
	}
	if err != nil {
		return nil, err
	}
	return evs, nil
}

// linkPrev sets each event's PrevHash, which the table does not store
// (migration 0091): events.GenesisHash for version 1, else the hash of
// the stream's event before, taken from evs when they hold it (evs are in
// version order within each stream) and otherwise read, all in one query.
// A predecessor that does not exist (a deleted event) leaves PrevHash nil,
// which VerifyChain reports.
func linkPrev(ctx context.Context, q Querier, evs []events.Event) error {
	type head struct {
		version int64
		hash    []byte
	}
	last := map[string]head{}
	var missing []int // indexes of events whose predecessor evs lack
	for i := range evs {
		e := &evs[i]
		switch h, ok := last[e.Stream]; {
		case e.Version == 1:
			e.PrevHash = events.GenesisHash()
		case ok && h.version == e.Version-1:
			e.PrevHash = h.hash
		default:
			missing = append(missing, i)
		}
		last[e.Stream] = head{e.Version, e.Hash}
	}
	if len(missing) == 0 {
		return nil
	}
	before := make([]streamVersion, len(missing))
	for k, i := range missing {
		before[k] = streamVersion{evs[i].Stream, evs[i].Version - 1}
	}
	// A predecessor the table lacks may be archived. Only reads take
	// hashes from the archive: an append's head comes from the table
	// (headsSQL).
	hashes := make(map[streamVersion][]byte, len(before))
	err := readHashes(ctx, q, hashesSQL, before, hashes)
	var archived []streamVersion
	for _, n := range before {
		if hashes[n] == nil {
			archived = append(archived, n)
		}
	}
	if err == nil && len(archived) > 0 {
		err = readHashes(ctx, q, archivedHashesSQL, archived, hashes)
	}
	if err != nil {
		return fmt.Errorf("events/postgres: read previous hashes: %w", err)
	}
	for k, i := range missing {
		evs[i].PrevHash = hashes[before[k]]
	}
	return nil
}

// streamVersion names one event: its stream and version.
type streamVersion struct {
	stream  string
	version int64
}

// hashesSQL reads the hash of each event ($1 stream, $2 version) there is.
const hashesSQL = `SELECT e.stream, e.version, e.hash FROM unnest($1::text[], $2::bigint[]) AS h(stream, version)
	JOIN events e ON e.stream = h.stream AND e.version = h.version`

// headsSQL reads, like hashesSQL, the hash of each event ($1 stream, $2
// version) the table holds, but for an event whose next version is
// archived: an append that expects it is behind the stream's head, and
// the table's unique key, which does not see the archive, would let it
// write its next version again. The archive is joined to events on their
// distribution column, as Citus requires ("complex joins are only
// supported when ... joined on their distribution columns").
const headsSQL = `SELECT e.stream, e.version, e.hash FROM unnest($1::text[], $2::bigint[]) AS h(stream, version)
	JOIN events e ON e.stream = h.stream AND e.version = h.version
	LEFT JOIN archived_streams a ON a.stream = e.stream AND e.version + 1 BETWEEN a.first_version AND a.last_version
	WHERE a.stream IS NULL`

// archivedHashesSQL reads the hash of each archived event ($1 stream, $2
// version) there is.
const archivedHashesSQL = `SELECT a.stream, h.version, substring(a.hashes FROM (h.version - a.first_version)::int * 32 + 1 FOR 32)
	FROM unnest($1::text[], $2::bigint[]) AS h(stream, version)
	JOIN archived_streams a ON a.stream = h.stream AND h.version BETWEEN a.first_version AND a.last_version`

// readHashes adds to out the hashes that sql (hashesSQL, headsSQL or
// archivedHashesSQL) reads of the events of names, in one query.
func readHashes(ctx context.Context, q Querier, sql string, names []streamVersion, out map[streamVersion][]byte) error {
	streams, versions := make([]string, len(names)), make([]int64, len(names))
	for k, n := range names {
		streams[k], versions[k] = n.stream, n.version
	}
	rows, err := q.Query(ctx, sql, streams, versions)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var n streamVersion
		var hash []byte
		if err := rows.Scan(&n.stream, &n.version, &hash); err != nil {
			return err
		}
		out[n] = hash
	}
	return rows.Err()
}

// scanEvents reads selectEvents rows and closes them.
func scanEvents(rows pgx.Rows) ([]events.Event, error) {
	defer rows.Close()
	d, fast := newDecoder(rows.FieldDescriptions())
	out := []events.Event{}
	for rows.Next() {
		var e events.Event
		if fast {
			if err := d.decode(rows.RawValues(), &e); err != nil {
				return nil, fmt.Errorf("events/postgres: decode event: %w", err)
			}
		} else {
			var data []byte
			if err := rows.Scan(&e.Position, &e.Stream, &e.Version, &e.Type, &data, &e.Meta.Actor, &e.Meta.RequestID,
				&e.Meta.IdempotencyKey, &e.RecordedAt, &e.Hash); err != nil {
				return nil, fmt.Errorf("events/postgres: scan event: %w", err)
			}
			e.Data = data
			e.RecordedAt = e.RecordedAt.UTC()
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("events/postgres: read events: %w", err)
	}
	return out, nil
}

// Verify implements events.Store.Verify: it reads the stream and recomputes
// its hash chain (events.VerifyChain).
func (s *Store) Verify(ctx context.Context, stream string, key *events.CommitKey) error {
	evs, err := s.ReadStream(ctx, stream, 1)
	if err != nil {
		return err
	}
	return events.VerifyChain(stream, evs, key)
}
