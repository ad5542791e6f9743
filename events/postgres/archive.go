package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"pbem/events"
)

// A stream that is done with (a game finished long ago) can be archived
// (migration 0107): its events but the first and the last move into one
// archived_streams row, whose JSON and hashes PostgreSQL's TOAST stores
// compressed, a third of the room the rows and their index entries took.
// The first and the last events stay: every read that joins on a stream's
// first event, the stream's head, its unique (stream, version) and so every
// append and its version check work as before, and a stream may be
// appended to after it is archived.
//
// The reads take archived events as if they were rows. The archive only
// ever takes events out of the events table, never puts them back (but
// the down migration), which lets a read look at the table first and at
// the archive only when the table lacks what it asked for: a stream read
// whose versions have a hole, an event or a hash not found. Events
// archived before the first look are then in the archive at the second;
// events archived between the two were in the table at the first. A
// stream that was never archived costs its reads nothing.

// archiveSQL moves the events of stream $1 between its first and its last
// into one archived_streams row stamped $2, in one statement. A stream
// already archived, or with no event between its first and its last, is
// left as it is (no row). The check on hashes' length rejects a stream
// whose versions have a hole.
const archiveSQL = `WITH moved AS (
	DELETE FROM events e
	WHERE e.stream = $1 AND e.version > 1
	  AND e.version < (SELECT max(m.version) FROM events m WHERE m.stream = $1)
	  AND NOT EXISTS (SELECT 1 FROM archived_streams a WHERE a.stream = $1)
	RETURNING e.position, e.version, e.type, e.actor, e.request_id, e.idempotency_key, e.append_key,
		e.recorded_at, e.data, e.hash
)
INSERT INTO archived_streams (stream, first_version, last_version, min_position, max_position, archived_at, events, hashes)
SELECT $1, min(version), max(version), min(position), max(position), $2,
	json_agg(json_build_array(position, version, type, actor, request_id, idempotency_key, append_key,
		(extract(epoch FROM recorded_at) * 1000000)::bigint, data) ORDER BY version),
	string_agg(hash, ''::bytea ORDER BY version)
FROM moved HAVING count(*) > 0`

// Archive archives each of streams (see above), one statement each, and
// returns how many it archived. Streams already archived, or with fewer
// than three events, are left as they are. It stops at the first error.
func (s *Store) Archive(ctx context.Context, streams []string) (int, error) {
	n := 0
	for _, st := range streams {
		tag, err := s.pool.Exec(ctx, archiveSQL, st, s.recordedNow())
		if err != nil {
			return n, fmt.Errorf("events/postgres: archive %s: %w", st, err)
		}
		n += int(tag.RowsAffected())
	}
	return n, nil
}

// archived is one archived_streams row: the events of stream from version
// first, as the archive's JSON array, and their hashes end to end.
type archived struct {
	stream      string
	first, last int64
	events      []byte
	hashes      []byte
}

// selectArchived is the column list scanArchived reads.
const selectArchived = `SELECT stream, first_version, last_version, events, hashes FROM archived_streams`

// readArchived returns the archived rows that the query (selectArchived
// with its conditions) selects.
func readArchived(ctx context.Context, q Querier, sql string, args ...any) ([]archived, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("events/postgres: read the archive: %w", err)
	}
	defer rows.Close()
	var out []archived
	for rows.Next() {
		var a archived
		if err := rows.Scan(&a.stream, &a.first, &a.last, &a.events, &a.hashes); err != nil {
			return nil, fmt.Errorf("events/postgres: read the archive: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("events/postgres: read the archive: %w", err)
	}
	return out, nil
}

// decode returns the archived events for which keep is true, in version
// order, without their PrevHash (linkPrev sets it).
func (a archived) decode(keep func(events.Event) bool) ([]events.Event, error) {
	var elems [][]json.RawMessage
	if err := json.Unmarshal(a.events, &elems); err != nil {
		return nil, fmt.Errorf("events/postgres: archive of %s: %w", a.stream, err)
	}
	if int64(len(elems)) != a.last-a.first+1 || len(a.hashes) != 32*len(elems) {
		return nil, fmt.Errorf("events/postgres: archive of %s: %d events and %d bytes of hashes for versions %d to %d",
			a.stream, len(elems), len(a.hashes), a.first, a.last)
	}
	var out []events.Event
	for i, el := range elems {
		e, err := decodeArchived(a.stream, el)
		if err == nil && e.Version != a.first+int64(i) {
			err = fmt.Errorf("version %d at the place of %d", e.Version, a.first+int64(i))
		}
		if err != nil {
			return nil, fmt.Errorf("events/postgres: archive of %s: %w", a.stream, err)
		}
		if keep(e) {
			e.Hash = slices.Clone(a.hashes[32*i : 32*i+32])
			out = append(out, e)
		}
	}
	return out, nil
}

// decodeArchived reads one element of an archive's array: [position,
// version, type, actor, request_id, idempotency_key, append_key,
// recorded_at in Unix microseconds, data]. data is kept byte for byte.
func decodeArchived(stream string, el []json.RawMessage) (events.Event, error) {
	e := events.Event{Stream: stream}
	if len(el) != 9 {
		return e, fmt.Errorf("an archived event of %d fields", len(el))
	}
	var micros int64
	for i, dst := range []any{&e.Position, &e.Version, &e.Type, &e.Meta.Actor, &e.Meta.RequestID, &e.Meta.IdempotencyKey} {
		if err := json.Unmarshal(el[i], dst); err != nil {
			return e, err
		}
	}
	if err := json.Unmarshal(el[7], &micros); err != nil {
		return e, err
	}
	e.RecordedAt = time.UnixMicro(micros).UTC()
	e.Data = slices.Clone(el[8])
	return e, nil
}

// hasHole reports whether evs, a stream's events in version order, lack
// a version from from on: evs do not begin at the event before from
// (which ReadStream reads too; at the first for from 1) or skip one.
func hasHole(evs []events.Event, from int64) bool {
	if len(evs) == 0 {
		return false
	}
	if evs[0].Version != max(from-1, 1) {
		return true
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Version != evs[i-1].Version+1 {
			return true
		}
	}
	return false
}

// fillFromArchive returns a stream's events from version from (live, read
// from the table) with the archived ones from that version put in their
// places, in version order.
func fillFromArchive(ctx context.Context, q Querier, stream string, from int64, live []events.Event) ([]events.Event, error) {
	rows, err := readArchived(ctx, q, selectArchived+` WHERE stream = $1 AND last_version >= $2`, stream, from)
	if err != nil || len(rows) == 0 {
		return live, err
	}
	old, err := rows[0].decode(func(e events.Event) bool { return e.Version >= from })
	if err != nil {
		return nil, err
	}
	return mergeEvents(live, old, func(e events.Event) int64 { return e.Version }), nil
}

// mergeEvents returns a and b merged in the order key gives, an event of b
// that a holds too (the same stream and version) left out.
func mergeEvents(a, b []events.Event, key func(events.Event) int64) []events.Event {
	have := make(map[streamVersion]bool, len(a))
	for _, e := range a {
		have[streamVersion{e.Stream, e.Version}] = true
	}
	out := slices.Clone(a)
	for _, e := range b {
		if !have[streamVersion{e.Stream, e.Version}] {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(x, y events.Event) int { return cmp.Compare(key(x), key(y)) })
	return out
}

// withArchivedPositions completes a page of ReadAll: evs are the table's
// events after after (at most limit, in position order), then its
// watermark row. It returns at most limit events in position order, the
// archived ones among them, without the watermark row. The page ends
// after its last event when it is full, at the watermark when it is not:
// archived events up to there take their places in it.
func withArchivedPositions(ctx context.Context, q Querier, after int64, limit int, evs []events.Event) ([]events.Event, error) {
	end := evs[len(evs)-1].Position
	evs = evs[:len(evs)-1]
	if len(evs) == limit {
		end = evs[len(evs)-1].Position + 1
	}
	rows, err := readArchived(ctx, q, selectArchived+
		` WHERE int8range(min_position, max_position, '[]') && int8range($1, $2, '()')`, after, end)
	if err != nil || len(rows) == 0 {
		return evs, err
	}
	var old []events.Event
	for _, a := range rows {
		got, err := a.decode(func(e events.Event) bool { return e.Position > after && e.Position < end })
		if err != nil {
			return nil, err
		}
		old = append(old, got...)
	}
	out := mergeEvents(evs, old, func(e events.Event) int64 { return e.Position })
	return out[:min(len(out), limit)], nil
}

// archivedAt returns the archived events among want.
func archivedAt(ctx context.Context, q Querier, want map[streamVersion]bool) ([]events.Event, error) {
	var streams []string
	for n := range want {
		if !slices.Contains(streams, n.stream) {
			streams = append(streams, n.stream)
		}
	}
	rows, err := readArchived(ctx, q, selectArchived+` WHERE stream = ANY ($1::text[])`, streams)
	if err != nil {
		return nil, err
	}
	var out []events.Event
	for _, a := range rows {
		got, err := a.decode(func(e events.Event) bool { return want[streamVersion{e.Stream, e.Version}] })
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}
