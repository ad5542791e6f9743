package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/notify/smtpsink"
)

// deliverOutbox runs the real notify worker once over pool's outbox,
// sending to an SMTP server on loopback with play links on publicURL, and
// returns the n messages the server received (failing unless exactly n
// rows were sent).
func deliverOutbox(t *testing.T, pool *pgxpool.Pool, publicURL string, n int) []smtpsink.Received {
	t.Helper()
	sink, sender := startSink(t)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: publicURL})
	if err != nil {
		t.Fatal(err)
	}
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(pool), Sender: sender, Renderer: r,
		Now: func() time.Time { return time.Now().Add(time.Second) }})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := w.RunOnce(context.Background()); got != n || err != nil {
		t.Fatalf("worker sent %d, %v; want %d", got, err, n)
	}
	got := sink.Wait(n, 5*time.Second)
	if len(got) != n {
		t.Fatalf("the SMTP server received %d emails, want %d", len(got), n)
	}
	return got
}

// startSink starts an SMTP server on loopback and returns it with a sender
// to it (plain text, as on loopback).
func startSink(t testing.TB) (*smtpsink.Sink, *notify.SMTPSender) {
	t.Helper()
	sink := smtpsink.Start(t, smtpsink.Options{})
	cfg, err := notify.ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	sender, err := notify.NewSMTPSender(cfg, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return sink, sender
}
