package systest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"pbem/notify/smtpsink"
)

// TestCrashes plays under load while the server is killed with SIGKILL
// three times (and restarted each time) and PostgreSQL is stopped
// immediately once (and started again), then checks that every
// acknowledged move is in the store, `pbem verify --all` passes, and every
// email due went out, each with at most one duplicate per crash.
func TestCrashes(t *testing.T) {
	start := systemTest(t)
	pg, dbURL := newDatabase(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	env := []string{"DATABASE_URL=" + dbURL, fmt.Sprintf("PBEM_SMTP_URL=smtp://%s?tls=none", sink.Addr()), "PBEM_MAIL_FROM=pbem@example.org",
		"PBEM_MAIL_LEASE=3s"}
	srv := newServer(t, env...)
	in := newInbox(sink)
	p := newPlayers(t, srv.base(), in)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wait := p.run(ctx, 6)

	const phase = 4 * time.Second
	crashes := 0
	for i, fault := range []string{"kill", "kill", "postgres", "kill"} {
		time.Sleep(phase)
		before := len(p.ackedMoves())
		switch fault {
		case "kill":
			srv.kill()
			srv.start()
		case "postgres":
			pg.stopImmediate(t)
			time.Sleep(time.Second)
			pg.start(t)
		}
		crashes++
		t.Logf("fault %d (%s) after %d acknowledged moves", i+1, fault, before)
	}
	time.Sleep(phase)
	cancel()
	wait()
	if t.Failed() {
		return
	}

	acked := p.ackedMoves()
	if len(acked) < 50 {
		t.Fatalf("only %d moves acknowledged: not a load", len(acked))
	}
	if found := countAcked(t, dbURL, acked); found != len(acked) {
		t.Errorf("%d of %d acknowledged moves are in the store", found, len(acked))
	}
	games := verifyAll(t, env)
	mail := checkMail(t, dbURL, in, 60*time.Second)
	if mail.most > 1+crashes {
		t.Errorf("an email arrived %d times after %d crashes: want at most one duplicate per crash", mail.most, crashes)
	}
	t.Logf("%d moves acknowledged, all in the store; %d games created, %d finished, %d verified; "+
		"%d emails due, %d received (%d duplicates); answers %v, %d without answer; %v",
		len(acked), p.games, p.finished, games, mail.rows, mail.received, mail.duplicates, p.status, p.transport,
		time.Since(start).Round(time.Second))
}
