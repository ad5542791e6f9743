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
// email due went out, each with at most one duplicate per crash. Each
// phase of play, before each fault and after the last, lasts until the
// players have had phaseMoves more moves acknowledged (not a fixed time,
// in which a busy machine may play too few).
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

	crashes := 0
	for i, fault := range []string{"kill", "kill", "postgres", "kill"} {
		p.playMore(t, phaseMoves)
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
	p.playMore(t, phaseMoves)
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

// phaseMoves is how many moves each phase of TestCrashes has acknowledged
// (about what 4 s gave at load 15, when the phases were timed: 1,878
// moves in all, 23 games finished), and phaseLimit how long a phase may
// take to get them.
const (
	phaseMoves = 300
	phaseLimit = 3 * time.Minute
)

// playMore waits until the players have had n more moves acknowledged
// (within phaseLimit).
func (p *players) playMore(t *testing.T, n int) {
	t.Helper()
	want := len(p.ackedMoves()) + n
	for deadline := time.Now().Add(phaseLimit); len(p.ackedMoves()) < want; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d moves acknowledged after %v, want %d", len(p.ackedMoves()), phaseLimit, want)
		}
	}
}
