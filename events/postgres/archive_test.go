package postgres_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	"pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/migrations"
)

// archiveFixture appends three streams whose appends interleave, so that
// their positions do: "a" and "b" of 12 appends of one to three events,
// with data of escapes and accents (the store keeps it canonical), and "c"
// of two events (nothing between its first and last).
func archiveFixture(t *testing.T, s *postgres.Store) {
	t.Helper()
	ctx := ctxT(t)
	version := map[string]int64{}
	for i := range 12 {
		for _, st := range []string{"a", "b"} {
			var evs []events.NewEvent
			for k := range 1 + (i+len(st))%3 {
				evs = append(evs, events.NewEvent{
					Type: fmt.Sprintf("T%d", k),
					Data: json.RawMessage(fmt.Sprintf(`{ "z": %d,  "a" : [1, 2.50], "s": "\u00e9\"%s" }`, i, st)),
					Meta: events.Metadata{Actor: "seat:" + st, RequestID: fmt.Sprintf("r%d", i), IdempotencyKey: fmt.Sprintf("k%d%s%d", i, st, k)},
				})
			}
			if _, err := s.Append(ctx, st, version[st], evs); err != nil {
				t.Fatal(err)
			}
			version[st] += int64(len(evs))
		}
		if i < 2 {
			if _, err := s.Append(ctx, "c", int64(i), []events.NewEvent{ev("C", `{"c":true}`)}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// everyRead is what the store answers about the fixture's streams: every
// stream read from every version, the whole log in pages of several
// sizes, every event by ReadAt.
type everyRead struct {
	Streams map[string][][]events.Event
	Pages   map[int][]events.Event
	At      []events.Event
}

func readEverything(t *testing.T, s *postgres.Store, total int) everyRead {
	t.Helper()
	ctx := ctxT(t)
	r := everyRead{Streams: map[string][][]events.Event{}, Pages: map[int][]events.Event{}}
	var names []string
	var versions []int64
	for _, st := range []string{"a", "b", "c"} {
		for from := int64(1); ; from++ {
			evs, err := s.ReadStream(ctx, st, from)
			if err != nil {
				t.Fatalf("ReadStream(%s, %d): %v", st, from, err)
			}
			r.Streams[st] = append(r.Streams[st], evs)
			if len(evs) == 0 {
				break
			}
			names, versions = append(names, st), append(versions, from)
		}
		if err := s.Verify(ctx, st, nil); err != nil {
			t.Fatalf("Verify(%s): %v", st, err)
		}
	}
	for _, size := range []int{1, 2, 3, 7, 1000} {
		r.Pages[size] = scanLog(t, s, size, total)
	}
	at, err := postgres.ReadAt(ctx, s.Pool(), append(names, "a"), append(versions, 999))
	if err != nil {
		t.Fatal(err)
	}
	r.At = at
	return r
}

// scanLog reads the whole log, total events, in pages of size. ReadAll
// holds events back while older transactions run anywhere on the server
// (other tests' databases too): an empty page before the total is waited
// past, polling, as the store's conformance suite does.
func scanLog(t *testing.T, s *postgres.Store, size, total int) []events.Event {
	t.Helper()
	ctx := ctxT(t)
	var out []events.Event
	var after int64
	for len(out) < total {
		page, err := s.ReadAll(ctx, after, size)
		if err != nil {
			t.Errorf("ReadAll(%d, %d): %v", after, size, err)
			return out
		}
		if len(page) > size {
			t.Errorf("ReadAll(%d, %d): %d events", after, size, len(page))
			return out
		}
		if len(page) == 0 {
			select {
			case <-ctx.Done():
				t.Errorf("ReadAll in pages of %d: %d of %d events before the deadline", size, len(out), total)
				return out
			case <-time.After(5 * time.Millisecond):
			}
			continue
		}
		out, after = append(out, page...), page[len(page)-1].Position
	}
	return out
}

func tableCount(t *testing.T, s *postgres.Store, stream string) int {
	t.Helper()
	var n int
	if err := s.Pool().QueryRow(ctxT(t), `SELECT count(*) FROM events WHERE stream = $1`, stream).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestArchivedStreamsReadAsBefore(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	archiveFixture(t, s)
	total := tableCount(t, s, "a") + tableCount(t, s, "b") + tableCount(t, s, "c")
	if total < 50 {
		t.Fatalf("the fixture has %d events", total)
	}
	before := readEverything(t, s, total)

	n, err := s.Archive(ctx, []string{"a", "b", "c", "none"})
	if err != nil || n != 2 {
		t.Fatalf("Archive: %d, %v; want 2 streams", n, err)
	}
	for st, want := range map[string]int{"a": 2, "b": 2, "c": 2} {
		if got := tableCount(t, s, st); got != want {
			t.Errorf("%s keeps %d events in the table, want %d (its first and last)", st, got, want)
		}
	}
	after := readEverything(t, s, total)
	if !reflect.DeepEqual(before, after) {
		for st := range before.Streams {
			if !reflect.DeepEqual(before.Streams[st], after.Streams[st]) {
				t.Errorf("ReadStream(%s) changed", st)
			}
		}
		for size := range before.Pages {
			if !reflect.DeepEqual(before.Pages[size], after.Pages[size]) {
				t.Errorf("ReadAll in pages of %d changed: %d events, then %d", size, len(before.Pages[size]), len(after.Pages[size]))
			}
		}
		if !reflect.DeepEqual(before.At, after.At) {
			t.Errorf("ReadAt changed")
		}
	}

	// Readers at once share the decoded archives (go test -race).
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if got := scanLog(t, s, 7, total); !reflect.DeepEqual(got, before.Pages[7]) {
				t.Errorf("a concurrent scan read %d events, want %d as before", len(got), len(before.Pages[7]))
			}
		})
	}
	wg.Wait()

	// Archiving again changes nothing.
	if n, err := s.Archive(ctx, []string{"a"}); err != nil || n != 0 {
		t.Fatalf("Archive again: %d, %v", n, err)
	}
	// The stream goes on: an append on its head, none on a stale version.
	head := before.Streams["a"][0]
	last := head[len(head)-1].Version
	if _, err := s.Append(ctx, "a", last-3, []events.NewEvent{ev("Late", `{}`)}); !events.IsConflict(err) {
		t.Fatalf("append at an archived version: %v, want a conflict", err)
	}
	if _, err := s.Append(ctx, "a", last, []events.NewEvent{ev("Late", `{"after":"archive"}`)}); err != nil {
		t.Fatalf("append on the head of an archived stream: %v", err)
	}
	// A store that remembers no head (another process, or after a
	// restart) looks the expected version up: an archived one, or the
	// first, whose next version is archived, is behind the head and loses,
	// writing nothing (the table's unique key does not see the archive).
	fresh := postgres.New(s.Pool())
	t.Cleanup(fresh.Close)
	for _, expected := range []int64{1, 2, last - 3, last - 1} {
		if _, err := fresh.Append(ctx, "a", expected, []events.NewEvent{ev("Late", `{}`)}); !events.IsConflict(err) {
			t.Fatalf("a fresh store's append expecting version %d: %v, want a conflict", expected, err)
		}
	}
	if got := tableCount(t, s, "a"); got != 3 {
		t.Fatalf("a has %d events in the table after the refused appends, want 3", got)
	}
	evs, err := s.ReadStream(ctx, "a", last-1)
	if err != nil || len(evs) != 3 || evs[2].Type != "Late" || !reflect.DeepEqual(evs[2].PrevHash, evs[1].Hash) {
		t.Fatalf("ReadStream after the append: %d events, %v", len(evs), err)
	}
	if err := s.Verify(ctx, "a", nil); err != nil {
		t.Fatalf("Verify after the append: %v", err)
	}
}

func TestTamperedArchiveFailsVerify(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	archiveFixture(t, s)
	if _, err := s.Archive(ctx, []string{"a"}); err != nil {
		t.Fatal(err)
	}
	if tag, err := s.Pool().Exec(ctx, `UPDATE archived_streams SET events = replace(events::text, '"z":3}', '"z":4}')::json WHERE stream = 'a' AND events::text LIKE '%"z":3}%'`); err != nil || tag.RowsAffected() != 1 {
		t.Fatalf("editing the archive: %v, %v", tag, err)
	}
	err := s.Verify(ctx, "a", nil)
	var ce *events.ChainError
	if !errors.As(err, &ce) || ce.Stream != "a" {
		t.Fatalf("Verify after editing an archived event: %v", err)
	}
}

// tableRows returns every row of events as text, in position order.
func tableRows(t *testing.T, s *postgres.Store) []string {
	t.Helper()
	rows, err := s.Pool().Query(ctxT(t), `SELECT concat_ws('|', position, stream, version, type, data::text, actor, request_id,
		idempotency_key, append_key, recorded_at, encode(hash, 'hex')) FROM events ORDER BY position`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestArchiveGoesPastABadStream: a stream with a hole in its versions (an
// event deleted by hand) fails to archive and stays as it is; the streams
// after it are archived all the same, and the error names it.
func TestArchiveGoesPastABadStream(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	archiveFixture(t, s)
	if _, err := s.Pool().Exec(ctx, `DELETE FROM events WHERE stream = 'a' AND version = 5`); err != nil {
		t.Fatal(err)
	}
	before := tableCount(t, s, "a")
	n, err := s.Archive(ctx, []string{"a", "b"})
	if n != 1 || err == nil || !strings.Contains(err.Error(), "archive a:") {
		t.Fatalf("Archive(a with a hole, b): %d archived, %v", n, err)
	}
	if got := tableCount(t, s, "a"); got != before {
		t.Errorf("a has %d events in the table after its failed archive, had %d", got, before)
	}
	if got := tableCount(t, s, "b"); got != 2 {
		t.Errorf("b keeps %d events in the table, want its first and last", got)
	}
}

// TestArchiveKeepsDataAsItWas: data that is not canonical (a row written
// by hand, or by an old release: a name twice, spaces) reads back from the
// archive byte for byte.
func TestArchiveKeepsDataAsItWas(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	archiveFixture(t, s)
	const odd = `{ "x": 1, "x": [2, 3.50] ,"y":"\u00e9" }`
	if _, err := s.Pool().Exec(ctx, `UPDATE events SET data = $1 WHERE stream = 'b' AND version = 3`, odd); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Archive(ctx, []string{"b"}); err != nil || n != 1 {
		t.Fatalf("Archive: %d, %v", n, err)
	}
	evs, err := s.ReadStream(ctx, "b", 3)
	if err != nil || len(evs) == 0 || evs[0].Version != 3 || string(evs[0].Data) != odd {
		t.Fatalf("ReadStream(b, 3) from the archive: %v, %v; want data %s", evs[:min(1, len(evs))], err, odd)
	}
}

// TestArchiveMigratesDown: the down migration puts the archived events back
// in the table as they were, every column.
func TestArchiveMigratesDown(t *testing.T) {
	t.Parallel()
	pgtest.SkipOnCitus(t, "migrates a database down and up")
	url := pgtest.NewDB(t)
	pool, err := pgxpool.New(ctxT(t), url)
	if err != nil {
		t.Fatal(err)
	}
	s := postgres.New(pool)
	t.Cleanup(s.Close)
	archiveFixture(t, s)
	before := tableRows(t, s)
	if n, err := s.Archive(ctxT(t), []string{"a", "b"}); err != nil || n != 2 {
		t.Fatalf("Archive: %d, %v", n, err)
	}
	if err := migrations.Steps(url, -1); err != nil {
		t.Fatal(err)
	}
	if after := tableRows(t, s); !reflect.DeepEqual(before, after) {
		t.Fatalf("the table after the archive and the down migration: %d rows, want %d as before", len(after), len(before))
	}
	if err := migrations.Steps(url, 1); err != nil {
		t.Fatal(err)
	}
}
