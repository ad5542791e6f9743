package postgres_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/play/playtest"
	"pbem/events/postgres/pgtest"
)

// TestMovesUpdateGamesHOT plays moves of many games through the service
// and reads their WAL with pg_walinspect: the games row a move updates is
// a heap-only tuple (no index keys a column a move changes, and the page
// has room: migration 0081), so the moves write no index entry of games.
//
// Whether a page still has room after a few updates depends on pruning
// (the dead versions go when no snapshot needs them and no other backend
// pins the page at that moment), hence on what else runs: on a loaded
// machine 8 to 20% of the updates found no room, against 3% idle, and
// 11% with fillfactor 100. So the room is checked where it is made, on
// the pages as the games are created (each page keeps room for the next
// version of its longest row: pageinspect), and the WAL tells apart the
// updates that found no room (heap_update logs a Heap/LOCK of the old
// version before it moves to another page) from those that had room and
// still were not HOT, which only an index keying a changed column makes.
func TestMovesUpdateGamesHOT(t *testing.T) {
	pgtest.SkipOnCitus(t, "reads the games table's pages (pageinspect) and WAL (pg_walinspect)")
	ctx := context.Background()
	clock := time.Now().UTC()
	svc, repo, _, pool := newServiceClock(t, &clock)
	var ids []string
	for range 30 {
		ids = append(ids, playtest.Create(t, svc, 4).ID)
	}
	// The games table and its indexes, as WAL block references name them.
	rels := map[string]string{} // "tablespace/database/relfilenode": table or index name
	rows, err := pool.Query(ctx, `SELECT format('%s/%s/%s', coalesce(nullif(c.reltablespace, 0), d.dattablespace), d.oid, c.relfilenode), c.relname
		FROM pg_class c, pg_database d WHERE d.datname = current_database()
		  AND (c.oid = 'games'::regclass OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'games'::regclass))`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var path, name string
		if err := rows.Scan(&path, &name); err != nil {
			t.Fatal(err)
		}
		rels[path] = name
	}
	if err := rows.Err(); err != nil || len(rels) < 3 {
		t.Fatalf("games relations: %v, %v", rels, err)
	}
	pagesHaveRoom(t, pool)
	measureAlone(t, pool)
	pgtest.KeepWAL(t, pool)
	var start string
	if err := pool.QueryRow(ctx, `SELECT pg_current_wal_lsn()::text`).Scan(&start); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(81, 1))
	for range 5 {
		for _, id := range ids {
			playSome(t, svc, repo, id, 2, rng)
		}
	}
	counts := map[string]int{} // "relation rmgr/type"
	recs, err := pool.Query(ctx, `SELECT resource_manager, record_type, block_ref
		FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn) WHERE block_ref IS NOT NULL`, start, pgtest.FlushedLSN(t, pool))
	if err != nil {
		t.Fatal(err)
	}
	for recs.Next() {
		var rmgr, typ, ref string
		if err := recs.Scan(&rmgr, &typ, &ref); err != nil {
			t.Fatal(err)
		}
		for path, name := range rels {
			if strings.Contains(ref, "rel "+path+" ") {
				counts[name+" "+rmgr+"/"+typ]++
			}
		}
	}
	if err := recs.Err(); err != nil {
		t.Fatal(err)
	}
	hot, cold, index := counts["games Heap/HOT_UPDATE"], counts["games Heap/UPDATE"]+counts["games Heap/UPDATE+INIT"], 0
	for k, n := range counts {
		if strings.HasPrefix(k, "games_") {
			index += n
		}
	}
	roomless := counts["games Heap/LOCK"] // the moves lock no games row otherwise
	var ended int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM games WHERE status <> 'active'`).Scan(&ended); err != nil {
		t.Fatal(err)
	}
	t.Logf("games WAL records of 10 moves in each of %d games (%d ended): %v", len(ids), ended, counts)
	// A game that ends changes its status (a column of games_active's
	// predicate): that update is not HOT though it has room. An update
	// that finds no room is not HOT either. Both write their index
	// entries (two at most each), as does a row inserted in the window
	// (make test once logged two, with 19 updates without room: 40
	// index records against a bound of 38 that left inserts out).
	inserted := counts["games Heap/INSERT"] + counts["games Heap/INSERT+INIT"]
	if hot+cold < 5*len(ids) || cold-roomless > ended || index > 2*(cold+inserted) {
		t.Fatalf("%d HOT updates, %d other updates (%d of them without room on their page), %d rows inserted and %d index records of games, %d games ended: want the moves' updates HOT when their page has room (ended games aside) and no index entry for them",
			hot, cold, roomless, inserted, index, ended)
	}
}

// pagesHaveRoom fails unless every page of games keeps room for the next
// version of its longest row (games' fillfactor, migration 0081).
func pagesHaveRoom(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	if _, err := pool.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pageinspect`); err != nil {
		t.Fatalf("pageinspect: %v", err)
	}
	rows, err := pool.Query(ctx, `SELECT b, h.upper - h.lower, (SELECT max(i.lp_len) FROM heap_page_items(p) i WHERE i.lp_flags = 1)
		FROM generate_series(0, pg_relation_size('games') / current_setting('block_size')::int - 1) b,
		  LATERAL get_raw_page('games', b::int) p, LATERAL page_header(p) h`)
	if err != nil {
		t.Fatal(err)
	}
	var page, free int
	var longest *int
	pages := 0
	if _, err := pgx.ForEachRow(rows, []any{&page, &free, &longest}, func() error {
		pages++
		// The next version takes its length, aligned, and a line pointer.
		if longest != nil && free < (*longest+7)/8*8+4 {
			t.Errorf("games page %d has %d bytes free, no room for the next version of its longest row (%d bytes)", page, free, *longest)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if pages == 0 {
		t.Fatal("games has no page")
	}
	t.Logf("%d pages of games have room for an update of each of their rows", pages)
}

// measureAlone keeps autovacuum off games while the moves are measured.
// The moves leave some 300 dead versions, past autovacuum's threshold for
// 30 rows (50 and a fifth of them), so a worker vacuums games during the
// moves whenever the launcher reaches this database in time, which is
// more often the longer the moves take: on a loaded machine. Its
// Btree/VACUUM records (one a page of each index) are index records no
// move wrote, and they failed the bound once: 26 non-HOT updates and 54
// index records, 2×26 for the updates and 2 for a vacuum of both indexes
// (a VACUUM run in the middle of the moves gives the same). The setting
// waits for a worker already on games (it takes the lock VACUUM holds).
func measureAlone(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), `ALTER TABLE games SET (autovacuum_enabled = false)`); err != nil {
		t.Fatalf("autovacuum off games: %v", err)
	}
}
