package postgres_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/notify"
	"pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// BenchmarkOutboxRun is the daily digest's load run: b.N digest emails
// (one per address, three waiting games each, with table talk) are due at
// once, and Worker.Run sends them to a loopback SMTP sink with the
// recipients' preferences looked up, as `pbem serve` does, with 1, 4 (the
// default) and 8 senders, unsigned and DKIM-signed (RSA 2048). It reports
// emails/s, from the start of Run to the sink's last message, and the
// connections the sink saw. The 10,000-player digest:
//
//	go test ./notify/postgres -run '^$' -bench OutboxRun -benchtime 10000x
func BenchmarkOutboxRun(b *testing.B) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		b.Fatal(err)
	}
	dk, err := notify.NewDKIM("pbem.example.org", "mail", key)
	if err != nil {
		b.Fatal(err)
	}
	for _, dkim := range []*notify.DKIM{nil, dk} {
		for _, senders := range []int{1, notify.DefaultSenders, 2 * notify.DefaultSenders} {
			b.Run(fmt.Sprintf("senders=%d/dkim=%t", senders, dkim != nil), func(b *testing.B) {
				benchmarkOutboxRun(b, senders, dkim)
			})
		}
	}
}

func benchmarkOutboxRun(b *testing.B, senders int, dkim *notify.DKIM) {
	pool := newPool(b)
	sink := smtpsink.Start(b, smtpsink.Options{})
	insertDigests(b, pool, b.N)
	cfg, err := notify.ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
	if err != nil {
		b.Fatal(err)
	}
	cfg.DKIM = dkim
	sender, err := notify.NewSMTPSender(cfg, 10*time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer sender.Close()
	w := newWorker(b, pool, workerOpts{sender: sender, prefs: postgres.NewPrefs(pool), senders: senders})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	b.ResetTimer()
	start := time.Now()
	go func() { defer close(done); _ = w.Run(ctx) }()
	got := sink.Wait(b.N, 10*time.Minute)
	elapsed := time.Since(start)
	b.StopTimer()
	cancel()
	<-done
	if len(got) != b.N {
		b.Fatalf("sink received %d of %d emails", len(got), b.N)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "emails/s")
	b.ReportMetric(float64(sink.Connections()), "connections")
}

// insertDigests writes n due digest rows, each to its own address with the
// digest preference, as the scheduler's Digests does.
func insertDigests(tb testing.TB, pool *pgxpool.Pool, n int) {
	tb.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	deadline := now.Add(48 * time.Hour)
	var games []outbox.WaitingGame
	for g := range 3 {
		games = append(games, outbox.WaitingGame{
			Game:     outbox.GameInfo{ID: fmt.Sprintf("g%d", g), Name: "lords-of-scotland", Players: []string{"Ann", "Bob", "Cid", "Dee"}},
			Seat:     g % 4,
			Deadline: &deadline,
			Chat:     []string{"Bob: your move, Ann", "Cid: good luck everyone"},
		})
	}
	p := outbox.Payload{To: outbox.Recipient{Seat: -1, Name: "Player", Email: "player@example.org"}, Language: "en", Games: games}
	b, err := json.Marshal(p)
	if err != nil {
		tb.Fatal(err)
	}
	// The template's address is replaced per row, so each email has its own recipient.
	if _, err := pool.Exec(ctx, `
INSERT INTO outbox (game_id, kind, payload, created_at, next_attempt_at)
SELECT '', $1, jsonb_set($2::jsonb, '{to,email}', to_jsonb('player' || i || '@example.org')), $3, $3
FROM generate_series(1, $4) AS i`, string(outbox.Digest), b, now.Add(-time.Second), n); err != nil {
		tb.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO mail_prefs (email, mode, updated_at)
SELECT 'player' || i || '@example.org', 'digest', $1 FROM generate_series(1, $2) AS i`, now, n); err != nil {
		tb.Fatal(err)
	}
}
