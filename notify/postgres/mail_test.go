package postgres_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"pbem/events/tokens"
	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/projections/outbox"
)

// syncBuffer is a bytes.Buffer safe for the worker's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

type noTimeouts struct{}

func (noTimeouts) Timeout(context.Context, string, time.Time) (bool, error) { return false, nil }

func TestNewMailDevModeDeliversToTheMailbox(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	var logs syncBuffer
	m, err := postgres.NewMail(pool, postgres.MailConfig{PublicURL: "http://localhost:8080", Secret: []byte("s"),
		Timeouter: noTimeouts{}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if m.Mailbox == nil {
		t.Fatal("no dev mailbox without PBEM_SMTP_URL")
	}
	insert(t, pool, time.Now().Add(-time.Second), outbox.Invitation, 2, "ann@example.org")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { m.Run(ctx); close(done) }()
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
	pool := newPool(t)
	for _, c := range []postgres.MailConfig{
		{PublicURL: "http://x", Secret: []byte("s")},
		{PublicURL: "http://x", Secret: []byte("s"), Timeouter: noTimeouts{}, SMTPURL: "mailto:x"},
		{PublicURL: "not a url", Secret: []byte("s"), Timeouter: noTimeouts{}},
	} {
		if m, err := postgres.NewMail(pool, c); err == nil {
			t.Errorf("NewMail(%+v) = %v, nil", c, m)
		}
	}
	m, err := postgres.NewMail(pool, postgres.MailConfig{PublicURL: "https://pbem.example.org", Secret: []byte("s"), Timeouter: noTimeouts{}, SMTPURL: "smtp://u:p@mail.example.org"})
	if err != nil || m.Mailbox != nil {
		t.Fatalf("SMTP mode: %v, mailbox %v", err, m.Mailbox)
	}
}
