package main

import (
	"context"
	"fmt"
	"maps"
	"testing"

	"pbem/migrations"
)

// TestMigrateInboxIntoGames loads the version 60 fixture (active and
// finished games of both engines), migrates it to 83, and checks that 0084
// moves every inbox row into its game's awaited_since, beside the same
// seat of to_move, and that migrating down gives the inbox back.
func TestMigrateInboxIntoGames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url, pool := version60(t)
	if err := migrations.To(url, 83); err != nil {
		t.Fatal(err)
	}
	// A seat awaited since before the last move, as in a simultaneous phase.
	if _, err := pool.Exec(ctx, `UPDATE inbox SET version = version - 1 WHERE ctid = (SELECT min(ctid) FROM inbox)`); err != nil {
		t.Fatal(err)
	}
	inbox := func(query string) map[string]int64 {
		t.Helper()
		rows, err := pool.Query(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]int64{}
		for rows.Next() {
			var id string
			var seat int
			var v int64
			if err := rows.Scan(&id, &seat, &v); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("%s/%d", id, seat)] = v
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return out
	}
	const fromInbox = `SELECT game_id, seat, version FROM inbox`
	want := inbox(fromInbox)
	if len(want) == 0 {
		t.Fatal("the fixture awaits no seat")
	}
	if err := migrations.To(url, 84); err != nil {
		t.Fatal(err)
	}
	pool.Reset()
	got := inbox(`SELECT g.id, w.seat, w.since FROM games g, unnest(g.to_move, g.awaited_since) AS w(seat, since)`)
	if !maps.Equal(got, want) {
		t.Fatalf("awaited_since after 0084: %v, want the inbox %v", got, want)
	}
	if err := migrations.To(url, 83); err != nil {
		t.Fatal(err)
	}
	pool.Reset()
	if back := inbox(fromInbox); !maps.Equal(back, want) {
		t.Fatalf("inbox after migrating down: %v, want %v", back, want)
	}
}
