//go:build ops

package systest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/notify/smtpsink"
)

// previousRelease is the commit of the release before the tree's: the one
// a rolling upgrade replaces. Set it to the previous release's commit at
// each release (migrations/README.md).
const previousRelease = "f37b770b6563b0db73290dbeaf27022d00f6beae"

// TestUpgradeUnderLoad builds the previous release from git, lets it
// create and serve a database and plays against it; then starts the tree's
// binary on the same database (it migrates at start) while the players of
// the old one go on and new players play on the new one; then drains and
// stops the old one and plays on the new one alone. Every answer is
// counted: no 5xx other than 503 is allowed, and every acknowledged move
// must be in the database; `pbem verify --all` passes.
func TestUpgradeUnderLoad(t *testing.T) {
	start := systemTest(t)
	old := buildRelease(t, previousRelease)
	binary(t) // the tree's, built before the clock of the upgrade starts
	_, dbURL := newDatabase(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	in := newInbox(sink)
	env := []string{"DATABASE_URL=" + dbURL, fmt.Sprintf("PBEM_SMTP_URL=smtp://%s?tls=none", sink.Addr()), "PBEM_MAIL_FROM=pbem@example.org",
		"PBEM_MAIL_GRACE=1s"}

	// The previous release alone.
	srvOld := newServerOf(t, old, fmt.Sprintf("127.0.0.1:%d", freePort(t)), env...)
	pOld := newPlayers(t, srvOld.base(), in)
	ctxOld, cancelOld := context.WithCancel(context.Background())
	defer cancelOld()
	waitOld := pOld.run(ctxOld, 3)
	waitMoves(t, pOld, 20, 90*time.Second)

	// The new release starts (and migrates) on the same database under the
	// old one's load; both serve for a while.
	before := len(pOld.ackedMoves())
	upgradeStart := time.Now()
	srvNew := newServer(t, env...)
	pNew := newPlayers(t, srvNew.base(), in)
	ctxNew, cancelNew := context.WithCancel(context.Background())
	defer cancelNew()
	waitNew := pNew.run(ctxNew, 3)
	waitMoves(t, pNew, 20, 90*time.Second)

	// Drain the old one (its players stop), then stop it.
	cancelOld()
	waitOld()
	srvOld.stop()
	upgradeEnd := time.Now()
	leftByOld := owedTurns(t, dbURL)
	duringOld := len(pOld.ackedMoves()) - before
	duringNew := 0
	for _, m := range pNew.ackedMoves() {
		if m.at.Before(upgradeEnd) {
			duringNew++
		}
	}
	waitMoves(t, pNew, len(pNew.ackedMoves())+20, 90*time.Second) // the new release alone
	cancelNew()
	waitNew()
	if t.Failed() {
		return
	}
	// The your-turn emails owed across the upgrade (PBEM_MAIL_GRACE=1s, so
	// that they fall due during the test): the new release's worker sends
	// every one the rows owe, those the previous release's moves left (with
	// their payload, from a release before migration 0105) among them, and
	// none twice.
	var sent, pending, skipped, failed, twice int
	waitFor(t, 60*time.Second, "every your-turn email owed sent", func() bool {
		sent, pending, skipped, failed, twice = turnEmails(t, dbURL)
		return owedTurns(t, dbURL).owed == 0 && pending == 0
	})
	if sent == 0 || twice > 0 || failed > 0 {
		t.Errorf("your-turn emails: %d sent, %d of them for a seat and version already sent; %d failed", sent, twice, failed)
	}
	if n := unclaimed(t, dbURL, leftByOld.keys); n > 0 {
		t.Errorf("%d of the %d your-turn emails the old release's rows owed have no outbox row", n, len(leftByOld.keys))
	}

	acked := append(pOld.ackedMoves(), pNew.ackedMoves()...)
	found := countAcked(t, dbURL, acked)
	status := map[int]int{}
	for _, p := range []*players{pOld, pNew} {
		for st, n := range p.status {
			status[st] += n
		}
	}
	unavailable, other5xx := status[503], 0
	for st, n := range status {
		if st >= 500 && st != 503 {
			other5xx += n
		}
	}
	games := verifyAll(t, env)
	t.Logf("upgrade %s -> tree: %d moves acknowledged in all, %d during the upgrade (%d on the old release, %d on the new) over %v; "+
		"503: %d, other 5xx: %d, lost: %d; answers %v, %d without answer; %d games verified; "+
		"your-turn emails owed when the old release stopped %d (%d with their payload), sent %d, skipped %d; %v",
		previousRelease[:12], len(acked), duringOld+duringNew, duringOld, duringNew, upgradeEnd.Sub(upgradeStart).Round(100*time.Millisecond),
		unavailable, other5xx, len(acked)-found, status, pOld.transport+pNew.transport, games,
		leftByOld.owed, leftByOld.withPayload, sent, skipped, time.Since(start).Round(time.Second))
	if other5xx > 0 {
		t.Errorf("%d answers were 5xx other than 503: %v", other5xx, status)
	}
	if found != len(acked) {
		t.Errorf("%d of %d acknowledged moves are in the database", found, len(acked))
	}
	if duringOld == 0 || duringNew == 0 {
		t.Errorf("no load during the upgrade: %d moves on the old release, %d on the new", duringOld, duringNew)
	}
}

// turns counts the your-turn emails the rows of active games owe: all of
// them, and those written with their payload (by a release before
// migration 0105), whose game, seat and version keys lists.
type turns struct {
	owed, withPayload int
	keys              []string
}

// owedTurns reads turns from the database of dbURL.
func owedTurns(t *testing.T, dbURL string) turns {
	t.Helper()
	var n turns
	queryRow(t, dbURL, `SELECT count(*), count(*) FILTER (WHERE e->'payload' IS NOT NULL),
		coalesce(array_agg(g.id || ' ' || (e->>'seat') || ' ' || (e->>'version')) FILTER (WHERE e->'payload' IS NOT NULL), '{}')
		FROM games g, json_array_elements(coalesce(g.turn_mail, '[]')) e WHERE g.status = 'active'`, &n.owed, &n.withPayload, &n.keys)
	return n
}

// unclaimed counts the keys (game, seat and version, as owedTurns lists
// them) that no your-turn row of the outbox has, sent or skipped.
func unclaimed(t *testing.T, dbURL string, keys []string) int {
	t.Helper()
	var n int
	queryRowArgs(t, dbURL, `SELECT count(*) FROM unnest($1::text[]) k WHERE NOT EXISTS (SELECT 1 FROM outbox o
		WHERE o.kind = 'your_turn' AND o.status IN ('sent', 'skipped') AND o.game_id || ' ' || o.seat || ' ' || o.event_version = k)`,
		[]any{keys}, &n)
	return n
}

// turnEmails counts the your-turn emails of the outbox: sent, pending,
// skipped (the worker's freshness check: the seat had played, or its
// player had seen the game, when it was due), failed, and sent for a seat
// and version an email was already sent for.
func turnEmails(t *testing.T, dbURL string) (sent, pending, skipped, failed, twice int) {
	t.Helper()
	queryRow(t, dbURL, `SELECT count(*) FILTER (WHERE status = 'sent'), count(*) FILTER (WHERE status = 'pending'),
		count(*) FILTER (WHERE status = 'skipped'), count(*) FILTER (WHERE status = 'failed'),
		(SELECT count(*) FROM (SELECT 1 FROM outbox WHERE kind = 'your_turn' AND status = 'sent'
			GROUP BY game_id, seat, event_version HAVING count(*) > 1) d)
		FROM outbox WHERE kind = 'your_turn'`, &sent, &pending, &skipped, &failed, &twice)
	return sent, pending, skipped, failed, twice
}

// queryRow scans the one row of sql on the database of dbURL into dst.
func queryRow(t *testing.T, dbURL, sql string, dst ...any) { queryRowArgs(t, dbURL, sql, nil, dst...) }

// queryRowArgs scans the one row of sql, with args, into dst.
func queryRowArgs(t *testing.T, dbURL, sql string, args []any, dst ...any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := conn.QueryRow(ctx, sql, args...).Scan(dst...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// waitFor waits until ok holds, within d; what names the condition.
func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitMoves waits until p has n acknowledged moves, within d.
func waitMoves(t *testing.T, p *players, n int, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for len(p.ackedMoves()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d moves acknowledged within %v (answers %v)", len(p.ackedMoves()), d, p.status)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// buildRelease builds cmd/pbem of commit (git archive of this repository
// into a temporary directory) and returns the binary's path.
func buildRelease(t *testing.T, commit string) string {
	t.Helper()
	src := t.TempDir()
	archive := exec.Command("bash", "-c", `set -o pipefail; git -C "$1" archive "$2" | tar -x -C "$3"`, "bash", repoTop(t), commit, src)
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("git archive %s: %v\n%s", commit, err, out)
	}
	bin := filepath.Join(t.TempDir(), "pbem-"+commit[:12])
	build := exec.Command("go", "build", "-o", bin, "./cmd/pbem")
	build.Dir = src
	build.Env = append(os.Environ(), "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build of %s: %v\n%s", commit, err, out)
	}
	return bin
}
