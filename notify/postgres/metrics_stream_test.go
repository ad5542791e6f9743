package postgres_test

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"pbem/notify"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// TestMeteredSenderKeepsStreaming: the metrics' wrapper of the SMTP sender
// (as serve wires it) is still a StreamSender, so the worker sends a batch
// on one kept connection and records each email as it goes, and every
// email is counted once.
func TestMeteredSenderKeepsStreaming(t *testing.T) {
	t.Parallel()
	pool := newPool(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	reg := prometheus.NewRegistry()
	sender := notify.NewMetrics(reg).Sender(smtpSender(t, sink))
	if _, ok := sender.(notify.StreamSender); !ok {
		t.Fatal("the metered SMTP sender is not a StreamSender")
	}
	c := newClock()
	insert(t, pool, c.Now(), outbox.YourTurn, 30, "ann@example.org")
	w := newWorker(t, pool, workerOpts{clock: c, sender: sender, batch: 10})
	for range 3 {
		if n, err := w.RunOnce(context.Background()); n != 10 || err != nil {
			t.Fatalf("RunOnce = %d, %v", n, err)
		}
	}
	if n := sink.Connections(); n != 1 || len(sink.Messages()) != 30 {
		t.Fatalf("%d messages on %d connections, want 30 on 1", len(sink.Messages()), n)
	}
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	sent := -1.0
	for _, f := range fams {
		if f.GetName() != "pbem_emails_sent_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "kind" && l.GetValue() == string(outbox.YourTurn) {
					sent = m.GetCounter().GetValue()
				}
			}
		}
	}
	if sent != 30 {
		t.Errorf("pbem_emails_sent_total{kind=%q} = %v, want 30", outbox.YourTurn, sent)
	}
}
