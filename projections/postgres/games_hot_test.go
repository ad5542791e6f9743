package postgres_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"pbem/events/postgres/pgtest"
)

// TestMovesUpdateGamesHOT plays moves of many games through the service
// and reads their WAL with pg_walinspect: the games row a move updates is
// a heap-only tuple (no index keys a column a move changes, and the page
// has room: migration 0081), so the moves write no index entry of games.
func TestMovesUpdateGamesHOT(t *testing.T) {
	ctx := context.Background()
	clock := time.Now().UTC()
	svc, repo, _, pool := newServiceClock(t, &clock)
	var ids []string
	for range 30 {
		ids = append(ids, create(t, svc, 4).ID)
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
	t.Logf("games WAL records of 10 moves in each of %d games: %v", len(ids), counts)
	// A game that ends changes its status (a column of games_active's
	// predicate), and a page may lack room (filled to 80%): those updates
	// are not HOT, and write their index entries (two at most each).
	if hot+cold < 5*len(ids) || cold > (hot+cold)/10 || index > 2*cold {
		t.Fatalf("%d HOT updates, %d other updates and %d index records of games: want the moves' updates HOT (ended games aside) and no index entry for them",
			hot, cold, index)
	}
}
