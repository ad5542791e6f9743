package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"pbem/notify"
	"pbem/notify/postgres"
)

type noTimeouts struct{}

func (noTimeouts) Timeout(context.Context, string, time.Time) (bool, error) { return false, nil }

func TestNewMailDevModeDeliversToTheMailbox(t *testing.T) {
	pool := newPool(t)
	m, err := postgres.NewMail(pool, postgres.MailConfig{PublicURL: "http://localhost:8080", Secret: []byte("s"), Timeouter: noTimeouts{}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Mailbox == nil {
		t.Fatal("no dev mailbox without PBEM_SMTP_URL")
	}
	insert(t, pool, time.Now().Add(-time.Second), notify.Invitation, 2, "ann@example.org")
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
	if len(got) != 2 || !strings.Contains(got[0].Text, "http://localhost:8080/play/g1?token=") || got[0].Headers["List-Unsubscribe"] == "" {
		t.Fatalf("mailbox = %+v", got)
	}
}

func TestNewMailChecksItsConfig(t *testing.T) {
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
