package systest

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"pbem/notify/smtpsink"
)

// TestRestoreIntoFreshCluster plays on cluster A, dumps its database with
// pg_dump, restores it with pg_restore into a fresh cluster B (whose
// transaction ids are far behind A's), and plays on against B with nothing
// else done: every write succeeds, every acknowledged move of both halves is
// in B, and `pbem verify --all` passes.
func TestRestoreIntoFreshCluster(t *testing.T) {
	start := systemTest(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	in := newInbox(sink)
	common := []string{"PBEM_MAIL_FROM=pbem@example.org",
		fmt.Sprintf("PBEM_SMTP_URL=smtp://%s?tls=none", sink.Addr())}

	a, urlA := newDatabase(t)
	srvA := newServer(t, append([]string{"DATABASE_URL=" + urlA}, common...)...)
	before := playFor(t, srvA.base(), in, 4*time.Second)
	srvA.stop()

	dump := filepath.Join(t.TempDir(), "pbem.dump")
	run(t, exec.Command(filepath.Join(a.bin, "pg_dump"), "-Fc", "-f", dump, "-d", urlA))
	b, urlB := newDatabase(t)
	run(t, exec.Command(filepath.Join(b.bin, "pg_restore"), "--no-owner", "-d", urlB, dump))
	if behind := xidBehind(t, urlB); !behind {
		t.Fatal("cluster B's transaction ids are not behind the restored positions: the test proves nothing")
	}

	envB := append([]string{"DATABASE_URL=" + urlB}, common...)
	srvB := newServer(t, envB...)
	p := newPlayers(t, srvB.base(), in)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	p.run(ctx, 4)()
	cancel()
	if t.Failed() {
		return
	}
	after := p.ackedMoves()
	if len(after) == 0 || p.status[500] > 0 || p.transport > 0 {
		t.Fatalf("after the restore: %d moves acknowledged, answers %v, %d without answer", len(after), p.status, p.transport)
	}
	all := append(before, after...)
	if found := countAcked(t, urlB, all); found != len(all) {
		t.Errorf("%d of %d acknowledged moves are in the restored database", found, len(all))
	}
	games := verifyAll(t, envB)
	t.Logf("%d moves on A, %d on B after pg_dump/pg_restore, all in B; %d games verified; %v",
		len(before), len(after), games, time.Since(start).Round(time.Second))
}

// playFor plays against base with 4 players for d and returns the
// acknowledged moves; it fails t on any 5xx or unanswered request.
func playFor(t *testing.T, base string, in *inbox, d time.Duration) []ackedMove {
	t.Helper()
	p := newPlayers(t, base, in)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	p.run(ctx, 4)()
	if p.status[500] > 0 || p.transport > 0 {
		t.Fatalf("answers %v, %d without answer", p.status, p.transport)
	}
	return p.ackedMoves()
}

// xidBehind reports whether the server of dbURL hands out transaction ids
// below those the restored positions were made from: the case a restore
// used to break.
func xidBehind(t *testing.T, dbURL string) bool {
	t.Helper()
	var behind bool
	queryRow(t, dbURL, `SELECT pg_current_xact_id()::text::bigint * 10000 < max(position) FROM events`, &behind)
	return behind
}
