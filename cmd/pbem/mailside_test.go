package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/notify"
	"pbem/projections/outbox"
)

// noTimeouts is a Timeouter with no game due.
type noTimeouts struct{}

func (noTimeouts) Timeout(context.Context, string, time.Time) (bool, error) { return false, nil }

// insertOutbox writes n outbox rows of kind to email, due at 'at', and
// returns their ids.
func insertOutbox(t testing.TB, pool *pgxpool.Pool, at time.Time, kind outbox.Kind, n int, email string) []int64 {
	t.Helper()
	b, err := json.Marshal(outbox.Payload{
		To:       outbox.Recipient{Seat: 0, Name: "Player 0", Email: email},
		Language: "en",
		Game:     outbox.GameInfo{ID: "g1", Name: "lords-of-scotland", Players: []string{"Ann", "Bob"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(context.Background(), `INSERT INTO outbox (game_id, seat, kind, payload, created_at, next_attempt_at)
SELECT 'g1', 0, $1, $2, $3, $3 FROM generate_series(1, $4) RETURNING id`, string(kind), b, at, n)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func TestNewMailDevModeDeliversToTheMailbox(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	var logs lockedBuffer
	m, err := newMailSide(pool, mailConfig{PublicURL: "http://localhost:8080", Secret: []byte("s"),
		Timeouter: noTimeouts{}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if m.Mailbox == nil {
		t.Fatal("no dev mailbox without PBEM_SMTP_URL")
	}
	insertOutbox(t, pool, time.Now().Add(-time.Second), outbox.Invitation, 2, "ann@example.org")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.run(ctx); close(done) }()
	var got []notify.StoredMail
	for deadline := time.Now().Add(10 * time.Second); len(got) < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got, err = m.Mailbox.List(context.Background(), 10); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	<-done
	// Invitations are not bulk mail: no List-Unsubscribe, no Precedence.
	if len(got) != 2 || !strings.Contains(got[0].Text, "http://localhost:8080/play/g1?token=") ||
		got[0].Headers["List-Unsubscribe"] != "" || got[0].Headers["Precedence"] != "" || got[0].From != `"pbem" <pbem@localhost>` {
		t.Fatalf("mailbox = %+v", got)
	}
	// One log line per message, without the link's token.
	l := logs.String()
	if strings.Count(l, "dev mail") != 2 || strings.Contains(l, "token") || strings.Contains(l, tokens.Seat([]byte("s"), "g1", 0, 0)) {
		t.Errorf("logs:\n%s", l)
	}
}

func TestNewMailChecksItsConfig(t *testing.T) {
	t.Parallel()
	pool := pgtest.NewPool(t)
	for _, c := range []mailConfig{
		{PublicURL: "http://x", Secret: []byte("s")},
		{PublicURL: "http://x", Secret: []byte("s"), Timeouter: noTimeouts{}, SMTPURL: "mailto:x"},
		{PublicURL: "not a url", Secret: []byte("s"), Timeouter: noTimeouts{}},
	} {
		if m, err := newMailSide(pool, c); err == nil {
			t.Errorf("newMailSide(%+v) = %v, nil", c, m)
		}
	}
	m, err := newMailSide(pool, mailConfig{PublicURL: "https://pbem.example.org", Secret: []byte("s"), Timeouter: noTimeouts{}, SMTPURL: "smtp://u:p@mail.example.org"})
	if err != nil || m.Mailbox != nil {
		t.Fatalf("SMTP mode: %v, mailbox %v", err, m.Mailbox)
	}
}

// TestMailRunRemovesSentEmailsPastTheirRetention runs the email side as
// serve does (mailSide.run) with PBEM_OUTBOX_RETENTION at 2h: an email sent 3
// hours ago is removed, one sent an hour ago and a failed one stay, and a
// pending one is sent (by the dev mailbox) and stays.
func TestMailRunRemovesSentEmailsPastTheirRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	m, err := newMailSide(pool, mailConfig{PublicURL: "http://localhost:8080", Secret: []byte("s"),
		Timeouter: noTimeouts{}, OutboxRetention: 2 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	ids := insertOutbox(t, pool, now.Add(-4*time.Hour), outbox.YourTurn, 4, "ann@example.org")
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
	go func() { m.run(runCtx); close(done) }()
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
