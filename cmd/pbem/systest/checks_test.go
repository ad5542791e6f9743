package systest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// countAcked returns how many of the acknowledged moves the database at
// dbURL holds: an event of the game's stream with the move's idempotency
// key (the game service stores it as seat:N:KEY).
func countAcked(t testing.TB, dbURL string, acked []ackedMove) int {
	t.Helper()
	streams := make([]string, len(acked))
	keys := make([]string, len(acked))
	for i, a := range acked {
		streams[i], keys[i] = a.game, "seat:"+strconv.Itoa(a.seat)+":"+a.key
	}
	var n int
	queryRowArgs(t, dbURL, `SELECT count(*) FROM unnest($1::text[], $2::text[]) AS a(stream, key)
		WHERE EXISTS (SELECT 1 FROM events e WHERE e.stream = a.stream AND e.idempotency_key = a.key)`,
		[]any{streams, keys}, &n)
	return n
}

// queryRow scans the one row of sql on the database of dbURL into dst.
func queryRow(t testing.TB, dbURL, sql string, dst ...any) { queryRowArgs(t, dbURL, sql, nil, dst...) }

// queryRowArgs scans the one row of sql, with args, into dst.
func queryRowArgs(t testing.TB, dbURL, sql string, args []any, dst ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, sql, args...).Scan(dst...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// mailReport is what checkMail found.
type mailReport struct {
	rows       int // outbox rows, all sent or skipped
	received   int // messages the sink received
	duplicates int // copies beyond the first, over all rows
	most       int // the most copies of one row
}

// checkMail waits up to d until the outbox has no pending row, then checks
// that every row was sent (or skipped by a preference), that each sent row
// reached the sink, nothing else did, and returns the duplicates: a crash
// may send the rows of the batch in flight once more (notify's lease), so
// the callers allow one more copy of each email per crash.
func checkMail(t testing.TB, dbURL string, in *inbox, d time.Duration) mailReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d+30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	deadline := time.Now().Add(d)
	for {
		var pending int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE status = 'pending'`).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		if pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d outbox rows still pending after %v", pending, d)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// The last rows are marked sent just after their delivery: let the sink's
	// list catch up with the table.
	time.Sleep(200 * time.Millisecond)
	rows, err := conn.Query(ctx, `SELECT id, status, coalesce(message_id, '') FROM outbox`)
	if err != nil {
		t.Fatal(err)
	}
	status, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (struct {
		id          int64
		status, mid string
	}, error) {
		var v struct {
			id          int64
			status, mid string
		}
		err := r.Scan(&v.id, &v.status, &v.mid)
		return v, err
	})
	if err != nil {
		t.Fatal(err)
	}
	copies := in.copies(t)
	var rep mailReport
	known := map[string]bool{}
	skipped := map[int64]bool{}
	for _, r := range status {
		rep.rows++
		switch r.status {
		case "sent":
			known[r.mid] = true
			if copies[r.mid] == 0 {
				t.Errorf("outbox row %d is marked sent (Message-ID %q) but never arrived", r.id, r.mid)
			}
		case "skipped":
			skipped[r.id] = true
		default:
			t.Errorf("outbox row %d is %s", r.id, r.status)
		}
	}
	for mid, n := range copies {
		rep.received += n
		// A server killed between an email's delivery and its record
		// claims the row again after the restart; by then the game may
		// have moved on, and the freshness check skips it rather than
		// send it twice: its one copy is the delivery before the kill.
		var id int64
		if _, err := fmt.Sscanf(mid, "outbox-%d.", &id); !known[mid] && (err != nil || !skipped[id] || n > 1) {
			t.Errorf("an email (Message-ID %s) that no sent outbox row recorded", mid)
		}
		if n > 1 {
			rep.duplicates += n - 1
		}
		rep.most = max(rep.most, n)
	}
	return rep
}
