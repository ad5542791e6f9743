package postgres_test

import (
	"context"
	"testing"
	"time"

	"pbem/notify/postgres"
	"pbem/projections/outbox"
)

// TestMailRunRemovesSentEmailsPastTheirRetention runs the email side as
// serve does (Mail.Run) with PBEM_OUTBOX_RETENTION at 2h: an email sent 3
// hours ago is removed, one sent an hour ago and a failed one stay, and a
// pending one is sent (by the dev mailbox) and stays.
func TestMailRunRemovesSentEmailsPastTheirRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := newPool(t)
	m, err := postgres.NewMail(pool, postgres.MailConfig{PublicURL: "http://localhost:8080", Secret: []byte("s"),
		Timeouter: noTimeouts{}, OutboxRetention: 2 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	ids := insert(t, pool, now.Add(-4*time.Hour), outbox.YourTurn, 4, "ann@example.org")
	for i, r := range []struct {
		status string
		sent   *time.Time
	}{{"sent", new(now.Add(-3 * time.Hour))}, {"sent", new(now.Add(-time.Hour))}, {"failed", nil}} {
		if _, err := pool.Exec(ctx, `UPDATE outbox SET status = $2, sent_at = $3 WHERE id = $1`, ids[i], r.status, r.sent); err != nil {
			t.Fatal(err)
		}
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { m.Run(runCtx); close(done) }()
	statuses := func() map[int64]string {
		t.Helper()
		out := map[int64]string{}
		rows, err := pool.Query(ctx, `SELECT id, status FROM outbox`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var s string
			if err := rows.Scan(&id, &s); err != nil {
				t.Fatal(err)
			}
			out[id] = s
		}
		return out
	}
	var got map[int64]string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		got = statuses()
		if _, old := got[ids[0]]; !old && got[ids[3]] == "sent" {
			break
		}
	}
	cancel()
	<-done
	want := map[int64]string{ids[1]: "sent", ids[2]: "failed", ids[3]: "sent"}
	if len(got) != len(want) {
		t.Fatalf("outbox after the retention ran: %v, want %v", got, want)
	}
	for id, s := range want {
		if got[id] != s {
			t.Fatalf("outbox after the retention ran: %v, want %v", got, want)
		}
	}
}
