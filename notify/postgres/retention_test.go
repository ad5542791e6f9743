package postgres_test

import (
	"context"
	"testing"
	"time"

	"pbem/notify/postgres"
	"pbem/projections/outbox"
)

// Sent (and skipped) rows older than the cut are removed, in chunks;
// recent sent rows, pending and failed rows stay.
func TestPurgeSentRemovesOnlySentRowsPastRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := newPool(t)
	now := time.Now().UTC()
	ids := insert(t, pool, now, outbox.YourTurn, 7, "ann@example.org")
	set := func(id int64, status string, sentAt *time.Time) {
		t.Helper()
		if _, err := pool.Exec(ctx, `UPDATE outbox SET status = $2, sent_at = $3 WHERE id = $1`, id, status, sentAt); err != nil {
			t.Fatal(err)
		}
	}
	old, recent := now.Add(-40*24*time.Hour), now.Add(-time.Hour)
	set(ids[0], "sent", &old)
	set(ids[1], "sent", &old)
	set(ids[2], "skipped", &old)
	set(ids[3], "sent", &recent)
	set(ids[4], "failed", &old)
	// ids[5], ids[6]: pending
	n, err := postgres.NewOutbox(pool).PurgeSent(ctx, now.Add(-postgres.DefaultOutboxRetention), 2)
	if err != nil || n != 3 {
		t.Fatalf("PurgeSent = %d, %v; want 3", n, err)
	}
	var left []int64
	rows, _ := pool.Query(ctx, `SELECT id FROM outbox ORDER BY id`)
	for rows.Next() {
		var id int64
		_ = rows.Scan(&id)
		left = append(left, id)
	}
	if len(left) != 4 || left[0] != ids[3] || left[1] != ids[4] || left[2] != ids[5] {
		t.Fatalf("left %v, want %v", left, ids[3:])
	}
}
