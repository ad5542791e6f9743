package postgres

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/jackc/pgx/v5"

	"pbem/events"
)

// A stream that is done with (a game finished long ago) can be archived
// (migration 0107): its events but the first and the last move into one
// archived_streams row, whose JSON and hashes PostgreSQL's TOAST stores
// compressed, a third of the room the rows and their index entries took.
// The first and the last events stay: every read that joins on a stream's
// first event, and the stream's head, which appends chain from, stay in the
// table, and a stream may be appended to after it is archived. The table's
// unique (stream, version) does not see the archive: an append that
// expects the first event, or an archived one, must lose, and does, since
// the head look-up (headsSQL) finds no event whose next one is archived.
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
// than three events, are left as they are. A stream that fails (a hole in
// its versions fails the hashes' check) is left as it is too, and named
// in the error, which joins those of every stream that failed: one bad
// stream does not hold the others back. It stops when ctx ends.
func (s *Store) Archive(ctx context.Context, streams []string) (int, error) {
	n := 0
	var errs []error
	for _, st := range streams {
		tag, err := s.pool.Exec(ctx, archiveSQL, st, s.recordedNow())
		if err != nil {
			errs = append(errs, fmt.Errorf("events/postgres: archive %s: %w", st, err))
			if ctx.Err() != nil {
				break
			}
			continue
		}
		n += int(tag.RowsAffected())
	}
	return n, errors.Join(errs...)
}

// archived is one archived_streams row: the events of stream from version
// first, as the archive's JSON array, and their hashes end to end.
type archived struct {
	stream      string
	first, last int64
	events      []byte
	hashes      []byte
}

// selectArchived is the column list readArchived reads.
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
// order, without their PrevHash (linkPrev sets it). It reads the JSON with
// jsontext, token by token: encoding/json's Unmarshal took six times as
// long as reading the same events from the table (BenchmarkReadStream).
func (a archived) decode(keep func(events.Event) bool) ([]events.Event, error) {
	fail := func(err error) ([]events.Event, error) {
		return nil, fmt.Errorf("events/postgres: archive of %s: %w", a.stream, err)
	}
	n := a.last - a.first + 1
	if int64(len(a.hashes)) != 32*n {
		return fail(fmt.Errorf("%d bytes of hashes for versions %d to %d", len(a.hashes), a.first, a.last))
	}
	// Data is taken as it was written: an event an older release stored
	// with a name twice, or text JSON would not accept, reads back as it is.
	dec := jsontext.NewDecoder(bytes.NewReader(a.events), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	d := &decoder{strings: map[string]string{}}
	if err := expectKind(dec, '['); err != nil {
		return fail(err)
	}
	var out []events.Event
	i := int64(0)
	for ; dec.PeekKind() == '['; i++ {
		e, err := d.archivedEvent(dec, a.stream)
		if err == nil && (i >= n || e.Version != a.first+i) {
			err = fmt.Errorf("version %d at the place of %d (versions %d to %d)", e.Version, a.first+i, a.first, a.last)
		}
		if err != nil {
			return fail(err)
		}
		if keep(e) {
			e.Hash = d.bytes(a.hashes[32*i : 32*i+32])
			out = append(out, e)
		}
	}
	if err := expectKind(dec, ']'); err != nil {
		return fail(err)
	}
	if i != n {
		return fail(fmt.Errorf("%d events for versions %d to %d", i, a.first, a.last))
	}
	return out, nil
}

// expectKind reads the next token, which must be of kind k.
func expectKind(dec *jsontext.Decoder, k jsontext.Kind) error {
	tok, err := dec.ReadToken()
	if err == nil && tok.Kind() != k {
		err = fmt.Errorf("%v where %v was expected", tok.Kind(), k)
	}
	return err
}

// archivedEvent reads one element of an archive's array: [position,
// version, type, actor, request_id, idempotency_key, append_key,
// recorded_at in Unix microseconds, data]. data is kept byte for byte.
func (d *decoder) archivedEvent(dec *jsontext.Decoder, stream string) (events.Event, error) {
	e := events.Event{Stream: stream}
	if err := expectKind(dec, '['); err != nil {
		return e, err
	}
	var micros int64
	for _, dst := range []any{&e.Position, &e.Version, &e.Type, &e.Meta.Actor, &e.Meta.RequestID, &e.Meta.IdempotencyKey, nil, &micros} {
		tok, err := dec.ReadToken()
		if err != nil {
			return e, err
		}
		switch dst := dst.(type) {
		case *int64:
			if tok.Kind() != '0' {
				return e, fmt.Errorf("%v where a number was expected", tok.Kind())
			}
			*dst = tok.Int()
		case *string:
			if tok.Kind() != '"' {
				return e, fmt.Errorf("%v where a string was expected", tok.Kind())
			}
			*dst = d.intern([]byte(tok.String()))
		}
	}
	data, err := dec.ReadValue()
	if err != nil {
		return e, err
	}
	e.Data = d.bytes(data)
	e.RecordedAt = time.UnixMicro(micros).UTC()
	return e, expectKind(dec, ']')
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

// mergeEvents returns a and b merged in the order of key, in which a is
// sorted, an event of b that a holds too (the same stream and version)
// left out. Keys are unique (a stream's versions, the log's positions).
func mergeEvents(a, b []events.Event, key func(events.Event) int64) []events.Event {
	have := make(map[streamVersion]bool, len(a))
	for _, e := range a {
		have[streamVersion{e.Stream, e.Version}] = true
	}
	b = slices.DeleteFunc(b, func(e events.Event) bool { return have[streamVersion{e.Stream, e.Version}] })
	slices.SortFunc(b, func(x, y events.Event) int { return cmp.Compare(key(x), key(y)) })
	out := make([]events.Event, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if key(a[0]) < key(b[0]) {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// withArchivedPositions completes a page of ReadAll: evs are the table's
// events after after (at most limit, in position order), then its
// watermark row, which says whether an archived stream has positions
// after after. It returns at most limit events in position order,
// the archived ones among them, without the watermark row. The page ends
// after its last event when it is full, at the watermark when it is not:
// archived events up to there take their places in it.
func (s *Store) withArchivedPositions(ctx context.Context, after int64, limit int, evs []events.Event) ([]events.Event, error) {
	end, archived := evs[len(evs)-1].Position, evs[len(evs)-1].Version == 1
	evs = evs[:len(evs)-1]
	if !archived {
		return evs, nil
	}
	if len(evs) == limit {
		end = evs[len(evs)-1].Position + 1
	}
	overlap, err := s.archives.overlapping(ctx, s.pool, after, end)
	if err != nil {
		return nil, err
	}
	var inPage []*events.Event // the archived events between after and end
	for _, a := range overlap {
		for i := range a.evs {
			if e := &a.evs[i]; e.Position > after && e.Position < end {
				inPage = append(inPage, e)
			}
		}
	}
	end = pageEnd(evs, inPage, end, limit)
	var old []events.Event
	for _, e := range inPage {
		if e.Position < end {
			c := *e
			c.Data, c.Hash = slices.Clone(e.Data), slices.Clone(e.Hash)
			old = append(old, c)
		}
	}
	out := mergeEvents(evs, old, func(e events.Event) int64 { return e.Position })
	return out[:min(len(out), limit)], nil
}

// pageEnd returns where a page of at most limit events ends, end at the
// latest, given the table's events of the page (evs) and the archived ones
// before end (archived): after the limit-th of their positions when they
// are more. A page of the table that is short (the log's end) would
// otherwise take every archived event to the watermark, and sort them, for
// every page.
func pageEnd(evs []events.Event, archived []*events.Event, end int64, limit int) int64 {
	if len(evs)+len(archived) <= limit {
		return end
	}
	pos := make([]int64, 0, len(evs)+len(archived))
	for _, e := range evs {
		pos = append(pos, e.Position)
	}
	for _, e := range archived {
		pos = append(pos, e.Position)
	}
	slices.Sort(pos)
	return pos[limit-1] + 1
}

// maxCachedEvents bounds the events of the decoded archives a Store keeps
// for ReadAll (about 30 MB; a four-player game's archive is about 190
// events, so some 500 games).
const maxCachedEvents = 100_000

// archiveCache keeps the archives ReadAll decoded. A page of the log
// overlaps every stream archived whose events were played beside its own,
// and the next page most of the same: decoding them again for each page
// read 8,500 events/s where the table reads 440,000 (BenchmarkReadAll, a
// log whose every page overlaps 100 archived streams); decoded once, an
// archive serves every page. An archived stream's row never changes (the
// archive takes a stream once), so an entry is never stale; it is checked
// against the row's versions all the same. When full (maxCachedEvents),
// the cache forgets everything and starts over, as heads does.
type archiveCache struct {
	mu     sync.Mutex
	m      map[string]*decodedArchive
	events int // the events of m's archives
}

// decodedArchive is an archived_streams row decoded: the versions it holds
// and their events.
type decodedArchive struct {
	first, last int64
	evs         []events.Event
}

// overlapping returns the archived streams with positions between after
// and end (both excluded), decoding those the cache lacks.
func (c *archiveCache) overlapping(ctx context.Context, q Querier, after, end int64) ([]*decodedArchive, error) {
	rows, err := q.Query(ctx, `SELECT stream, first_version, last_version FROM archived_streams
		WHERE int8range(min_position, max_position, '[]') && int8range($1, $2, '()')`, after, end)
	if err != nil {
		return nil, fmt.Errorf("events/postgres: read the archive: %w", err)
	}
	type key struct {
		stream      string
		first, last int64
	}
	var keys []key
	var k key
	if _, err := pgx.ForEachRow(rows, []any{&k.stream, &k.first, &k.last}, func() error {
		keys = append(keys, k)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("events/postgres: read the archive: %w", err)
	}
	out := make([]*decodedArchive, 0, len(keys))
	var missing []string
	c.mu.Lock()
	for _, k := range keys {
		if d := c.m[k.stream]; d != nil && d.first == k.first && d.last == k.last {
			out = append(out, d)
		} else {
			missing = append(missing, k.stream)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	fetched, err := readArchived(ctx, q, selectArchived+` WHERE stream = ANY ($1::text[])`, missing)
	if err != nil {
		return nil, err
	}
	for _, a := range fetched {
		evs, err := a.decode(func(events.Event) bool { return true })
		if err != nil {
			return nil, err
		}
		d := &decodedArchive{first: a.first, last: a.last, evs: evs}
		out = append(out, d)
		c.mu.Lock()
		if c.m == nil || c.events+len(evs) > maxCachedEvents {
			c.m, c.events = make(map[string]*decodedArchive), 0
		}
		if old := c.m[a.stream]; old != nil {
			c.events -= len(old.evs)
		}
		c.m[a.stream], c.events = d, c.events+len(evs)
		c.mu.Unlock()
	}
	return out, nil
}

// withArchivedAt adds to evs, the events the table holds of those ReadAt
// asked for (streams[i] at versions[i]), the archived ones of the others.
func withArchivedAt(ctx context.Context, q Querier, streams []string, versions []int64, evs []events.Event) ([]events.Event, error) {
	want := make(map[streamVersion]bool, len(streams))
	for i := range streams {
		want[streamVersion{streams[i], versions[i]}] = true
	}
	for _, e := range evs {
		delete(want, streamVersion{e.Stream, e.Version})
	}
	var missing []string
	for n := range want {
		if !slices.Contains(missing, n.stream) {
			missing = append(missing, n.stream)
		}
	}
	rows, err := readArchived(ctx, q, selectArchived+` WHERE stream = ANY ($1::text[])`, missing)
	if err != nil {
		return nil, err
	}
	for _, a := range rows {
		got, err := a.decode(func(e events.Event) bool { return want[streamVersion{e.Stream, e.Version}] })
		if err != nil {
			return nil, err
		}
		evs = append(evs, got...)
	}
	return evs, nil
}
