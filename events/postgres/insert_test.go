package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
	"pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/migrations"
)

// evs returns n events of type typ.
func evs(typ string, n int) []events.NewEvent {
	out := make([]events.NewEvent, n)
	for i := range out {
		out[i] = ev(typ, fmt.Sprint(i))
	}
	return out
}

// A batch of more events than one insert statement holds is still one
// transaction: when a later statement loses a race, the rows of the earlier
// ones are not kept, and the batch written again without the loser holds
// each winning event once, at positions of one transaction (same xid).
func TestBatchOverSeveralStatementsIsOneTransaction(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	s := newStore(t)
	other := postgres.New(s.Pool())
	t.Cleanup(other.Close)
	// b's version 1 is taken behind s's back: s believes b is new.
	if _, err := other.Append(ctx, "b", 0, []events.NewEvent{ev("Other", `0`)}); err != nil {
		t.Fatal(err)
	}
	// a's 40 events fill the first statement (32 rows) and the second
	// begins with a's last 8; b's event is the second statement's 9th row.
	out, err := s.AppendBatch(ctx, []events.Append{
		{Stream: "a", Expected: 0, Events: evs("A", 40)},
		{Stream: "b", Expected: 0, Events: []events.NewEvent{ev("B", `1`)}},
		{Stream: "c", Expected: 0, Events: evs("C", 30)},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !events.IsConflict(out[1].Err) {
		t.Fatalf("b: %v, want a conflict", out[1].Err)
	}
	for k, o := range []events.Appended{out[0], out[2]} {
		if o.Err != nil {
			t.Fatalf("append %d: %v", k, o.Err)
		}
	}
	base := out[0].Events[0].Position
	written := append(append([]events.Event{}, out[0].Events...), out[2].Events...)
	for i, e := range written {
		if e.Position/10000 != base/10000 || (i > 0 && e.Position <= written[i-1].Position) {
			t.Fatalf("event %d (%s v%d) at position %d after %d: want one transaction's positions, in order", i, e.Stream, e.Version, e.Position, written[max(i-1, 0)].Position)
		}
	}
	for stream, want := range map[string]int{"a": 40, "b": 1, "c": 30} {
		got, err := s.ReadStream(ctx, stream, 1)
		if err != nil || len(got) != want {
			t.Fatalf("stream %s holds %d events (%v), want %d", stream, len(got), err, want)
		}
		if err := s.Verify(ctx, stream, nil); err != nil {
			t.Fatal(err)
		}
	}
	var rows int
	if err := s.Pool().QueryRow(ctx, `SELECT count(*) FROM events`).Scan(&rows); err != nil || rows != 71 {
		t.Fatalf("%d rows (%v), want 71", rows, err)
	}
}

// preSQL is the append statement of the store before migration 0090: one
// INSERT over arrays, positions from events_position_base() as 0005
// defined it.
const preSQL = `INSERT INTO events (position, stream, version, type, data, actor, request_id, idempotency_key,
		append_key, recorded_at, prev_hash, hash)
	SELECT (SELECT events_position_base()) + u.off, u.stream, u.version, u.type, u.data::json,
		u.actor, u.req, u.key, u.akey, u.at, u.prev, u.hash
	FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
		$8::text[], $9::text[], $10::timestamptz[], $11::bytea[], $12::bytea[])
		AS u(stream, version, off, type, data, actor, req, key, akey, at, prev, hash)`

// writePre appends evs to stream after expected, whose last hash is prev,
// as the store before migration 0090 wrote them, and returns the new head's
// hash.
func writePre(t *testing.T, pool *pgxpool.Pool, stream string, expected int64, prev []byte, evs []events.NewEvent) []byte {
	t.Helper()
	p, err := events.Prepare(stream, expected, evs, events.RecordedNow())
	if err != nil {
		t.Fatal(err)
	}
	var (
		streams, types, data, actors, reqs, keys []string
		versions                                 []int64
		offs                                     []int32
		akeys                                    []*string
		at                                       []time.Time
		prevs, hashes                            [][]byte
	)
	for k := range p {
		e := &p[k]
		e.Hash = events.ChainHash(prev, events.CanonicalPrepared(e))
		streams, versions, offs = append(streams, e.Stream), append(versions, e.Version), append(offs, int32(k))
		types, data, actors = append(types, e.Type), append(data, string(e.Data)), append(actors, e.Meta.Actor)
		reqs, keys, akeys = append(reqs, e.Meta.RequestID), append(keys, e.Meta.IdempotencyKey), append(akeys, nil)
		at, prevs, hashes = append(at, e.RecordedAt), append(prevs, prev), append(hashes, e.Hash)
		prev = e.Hash
	}
	if _, err := pool.Exec(context.Background(), preSQL, streams, versions, offs, types, data, actors, reqs, keys, akeys, at, prevs, hashes); err != nil {
		t.Fatal(err)
	}
	return prev
}

// A database written before migration 0090 (positions from the
// zero-argument events_position_base) migrates, verifies, and takes new
// appends whose positions follow the old ones in the global log.
func TestAppendsAfterMigration0090(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	url := pgtest.NewEmptyDB(t)
	if err := migrations.To(url, 71); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	head := writePre(t, pool, "g", 0, events.GenesisHash(), evs("Old", 3))
	writePre(t, pool, "g", 3, head, evs("Old", 2))
	writePre(t, pool, "h", 0, events.GenesisHash(), evs("Old", 1))
	if err := migrations.Up(url); err != nil {
		t.Fatal(err)
	}
	s := postgres.New(pool)
	t.Cleanup(s.Close)
	if _, err := s.Append(ctx, "g", 5, evs("New", 2)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, "h", 1, evs("New", 1)); err != nil {
		t.Fatal(err)
	}
	for _, stream := range []string{"g", "h"} {
		if err := s.Verify(ctx, stream, nil); err != nil {
			t.Fatalf("verify %s after migrating: %v", stream, err)
		}
	}
	var all []events.Event
	deadline := time.Now().Add(10 * time.Second)
	for len(all) < 9 && time.Now().Before(deadline) {
		if all, err = s.ReadAll(ctx, 0, 100); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(all) != 9 {
		t.Fatalf("ReadAll: %d events, want 9", len(all))
	}
	for i, e := range all {
		want := "Old"
		if i >= 6 {
			want = "New"
		}
		if e.Type != want {
			t.Fatalf("event %d is %s, want %s: new positions after the old", i, e.Type, want)
		}
		if i > 0 && e.Position <= all[i-1].Position {
			t.Fatalf("positions out of order at %d: %d after %d", i, e.Position, all[i-1].Position)
		}
	}
}

// Migration 0091 drops the stored prev_hash, which reads tell from the
// event before; its down migration stores it again, equal to what the
// store had chained, and the store reads and verifies across both.
func TestMigration0091PrevHashDownAndUp(t *testing.T) {
	t.Parallel()
	ctx := ctxT(t)
	url := pgtest.NewEmptyDB(t)
	if err := migrations.Up(url); err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	s := postgres.New(pool)
	t.Cleanup(s.Close)
	want := map[string][]events.Event{}
	for stream, n := range map[string]int{"g": 5, "h": 1} {
		for v := range n {
			if _, err := s.Append(ctx, stream, int64(v), evs("E", 1)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.ReadStream(ctx, stream, 1)
		if err != nil {
			t.Fatal(err)
		}
		want[stream] = got
	}
	if err := migrations.To(url, 90); err != nil {
		t.Fatal(err)
	}
	for stream, evs := range want {
		for _, e := range evs {
			var prev []byte
			if err := pool.QueryRow(ctx, `SELECT prev_hash FROM events WHERE stream = $1 AND version = $2`, stream, e.Version).Scan(&prev); err != nil {
				t.Fatal(err)
			}
			if string(prev) != string(e.PrevHash) {
				t.Errorf("%s v%d: stored prev_hash %x after the down migration, want %x", stream, e.Version, prev, e.PrevHash)
			}
		}
	}
	if err := migrations.Up(url); err != nil {
		t.Fatal(err)
	}
	pool.Reset() // the statements cached before the column went and came back
	for stream, evs := range want {
		if err := s.Verify(ctx, stream, nil); err != nil {
			t.Errorf("verify %s after down and up: %v", stream, err)
		}
		got, err := s.ReadStream(ctx, stream, 2)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range got {
			if string(e.PrevHash) != string(evs[i+1].PrevHash) {
				t.Errorf("%s v%d: prev hash %x read from version 2, want %x", stream, e.Version, e.PrevHash, evs[i+1].PrevHash)
			}
		}
	}
}
