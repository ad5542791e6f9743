package postgres_test

import (
	"context"
	"testing"
	"time"

	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// BenchmarkOutboxThroughput sends b.N outbox rows to a loopback SMTP sink
// with one worker (batches of 100 on one connection each). Report emails/s.
func BenchmarkOutboxThroughput(b *testing.B) {
	pool := newPool(b)
	sink := smtpsink.Start(b, smtpsink.Options{})
	insert(b, pool, time.Now().Add(-time.Second), outbox.YourTurn, b.N, "ann@example.org")
	w := newWorker(b, pool, workerOpts{sender: smtpSender(b, sink), batch: 100})
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	sent := 0
	for sent < b.N {
		n, err := w.RunOnce(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if n == 0 {
			b.Fatalf("only %d of %d rows claimed", sent, b.N)
		}
		sent += n
	}
	b.ReportMetric(float64(sent)/time.Since(start).Seconds(), "emails/s")
	b.StopTimer()
	if got := len(sink.Messages()); got != b.N {
		b.Fatalf("sink received %d, want %d", got, b.N)
	}
}
