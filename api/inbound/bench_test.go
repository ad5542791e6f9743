package inbound_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/events/tokens"
	"pbem/notify"
)

// BenchmarkRepliesEndToEnd measures replies handled per second on
// loopback, end to end: an SMTP conversation with the listener, the move
// played through the game service, and the answer written to the outbox
// before the listener says 250. 32 clients keep their SMTP connection open
// (as a relay does) and answer move 1 of the seat to move in 600 games.
//
//	go test ./api/inbound/ -run '^$' -bench RepliesEndToEnd -benchtime 2000x
func BenchmarkRepliesEndToEnd(b *testing.B) {
	e := newBenchEnv(b)
	const games, clients = 600, 32
	ids := make([]string, games)
	for i := range ids {
		ids[i] = e.create("lords-of-scotland", "en")
	}
	ctx := context.Background()
	var next atomic.Int64
	var played atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			cl, err := smtp.Dial(e.addr)
			if err != nil {
				b.Error(err)
				return
			}
			defer cl.Close()
			if err := cl.Hello("relay.example.org"); err != nil {
				b.Error(err)
				return
			}
			for {
				n := next.Add(1) - 1
				if n >= int64(b.N) {
					return
				}
				id := ids[(int(n)*clients+c)%games]
				// The address the seat's latest email carries.
				sm, err := e.svc.Summary(ctx, id)
				if err != nil || len(sm.ToMove) == 0 {
					continue
				}
				seat := sm.ToMove[0]
				tag := tokens.ReplyTag(secret, id, seat, 0)
				rs, err := e.svc.Reply(ctx, id, seat, tag, 0)
				if err != nil {
					b.Error(err)
					return
				}
				to := notify.ReplyAddress{GameID: id, Seat: seat, Choice: rs.Choice, Tag: tag}.String(replyDomain)
				msg := "From: p@example.org\r\nTo: " + to + "\r\nSubject: Re: your turn\r\nMessage-ID: <b" +
					fmt.Sprint(n) + "@bench>\r\nContent-Type: text/plain\r\n\r\n1\r\n\r\nOn Mon, pbem wrote:\r\n> 1. a move\r\n"
				if err := cl.SendMail("p@example.org", []string{to}, strings.NewReader(msg)); err != nil {
					b.Error(err)
					return
				}
				played.Add(1)
			}
		}(c)
	}
	wg.Wait()
	el := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(played.Load())/el.Seconds(), "replies/s")
	var answers int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE kind = 'reply'`).Scan(&answers); err != nil {
		b.Fatal(err)
	}
	if int64(answers) < played.Load() {
		b.Fatalf("%d answers in the outbox for %d replies", answers, played.Load())
	}
}

// BenchmarkLargeReply measures the memory one 1 MB reply takes (an HTML
// message with a large quoted part), through SMTP with a 2 MiB limit.
//
//	go test ./api/inbound/ -run '^$' -bench LargeReply -benchtime 20x
func BenchmarkLargeReply(b *testing.B) {
	e := newBenchEnv(b)
	id := e.create("lords-of-scotland", "en")
	ctx := context.Background()
	sm, err := e.svc.Summary(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	seat := sm.ToMove[0]
	tag := tokens.ReplyTag(secret, id, seat, 0)
	quoted := strings.Repeat("<p>An earlier message, quoted at length by a desktop client.</p>\r\n", 1<<20/66)
	var peak uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		to := notify.ReplyAddress{GameID: id, Seat: seat, Choice: "stale", Tag: tag}.String(replyDomain)
		msg := "From: p@example.org\r\nTo: " + to + "\r\nSubject: Re: your turn\r\nMessage-ID: <big" + fmt.Sprint(i) +
			"@bench>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><div>chat: hi</div><blockquote>" +
			quoted + "</blockquote></body></html>\r\n"
		if i == 0 {
			b.ReportMetric(float64(len(msg))/1e6, "MB/msg")
		}
		c, err := smtp.Dial(e.addr)
		if err != nil {
			b.Fatal(err)
		}
		if err := c.SendMail("p@example.org", []string{to}, strings.NewReader(msg)); err != nil {
			b.Fatal(err)
		}
		c.Close()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
}
