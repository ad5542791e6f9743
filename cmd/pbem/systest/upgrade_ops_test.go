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
	leftByOld := readTurns(t, dbURL)
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
	// that they fall due during the test): the new release's worker claims
	// every one the rows of active games owe, those the previous release's
	// moves left (with their payload, from a release before migration 0105)
	// among them, and sends each claimed email once, or skips it if its seat
	// played since (notify's freshness). A worker that could not read an
	// element would leave it owed; an element gone from a game that did not
	// move since, with no outbox row, is an email lost. How many are sent
	// depends on the play (a game its players finished owes none).
	var end turns
	waitFor(t, 60*time.Second, func() bool {
		end = readTurns(t, dbURL)
		return end.owed == 0 && end.pending == 0
	}, func() string {
		return fmt.Sprintf("every your-turn email owed claimed and sent or skipped: %d still owed, %d pending", end.owed, end.pending)
	})
	if end.twice > 0 || end.failed > 0 {
		t.Errorf("your-turn emails: %d sent, %d of them for a seat and version already sent; %d failed", end.sent, end.twice, end.failed)
	}
	if lost := lostTurns(t, dbURL, leftByOld.owedKeys); len(lost) > 0 {
		t.Errorf("your-turn emails owed when the old release stopped, gone from their rows without an outbox row: %v", lost)
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
		leftByOld.owed, leftByOld.withPayload, end.sent, end.skipped, time.Since(start).Round(time.Second))
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

// turns is what the database says of the your-turn emails at one moment
// (one statement, so one snapshot: a claim moves an email from its game's
// row to the outbox in one transaction): those the rows of active games
// owe (owed; withPayload: written with their payload by a release before
// migration 0105; owedKeys: each by its game, seat and version, with the
// game's version then) and the outbox's (pending, sent, skipped: the
// worker's freshness check found its seat had played, failed, and twice:
// sent for a seat and version an email was already sent for).
type turns struct {
	owed, withPayload                     int
	owedKeys                              turnKeys
	pending, sent, skipped, failed, twice int
}

// turnKeys are your-turn emails by game, seat and version, with their
// game's version when they were read.
type turnKeys struct {
	games                  []string
	seats                  []int32
	versions, gameVersions []int64
}

// readTurns reads turns from the database of dbURL.
func readTurns(t *testing.T, dbURL string) turns {
	t.Helper()
	var n turns
	k := &n.owedKeys
	queryRow(t, dbURL, `SELECT * FROM
		(SELECT count(*), count(*) FILTER (WHERE e->'payload' IS NOT NULL), coalesce(array_agg(g.id), '{}'),
			coalesce(array_agg((e->>'seat')::int), '{}'), coalesce(array_agg((e->>'version')::bigint), '{}'),
			coalesce(array_agg(g.version), '{}')
		FROM games g, json_array_elements(coalesce(g.turn_mail, '[]')) e WHERE g.status = 'active') owed,
		(SELECT count(*) FILTER (WHERE status = 'pending'), count(*) FILTER (WHERE status = 'sent'),
			count(*) FILTER (WHERE status = 'skipped'), count(*) FILTER (WHERE status = 'failed'),
			(SELECT count(*) FROM (SELECT 1 FROM outbox WHERE kind = 'your_turn' AND status = 'sent'
				GROUP BY game_id, seat, event_version HAVING count(*) > 1) d)
		FROM outbox WHERE kind = 'your_turn') mail`,
		&n.owed, &n.withPayload, &k.games, &k.seats, &k.versions, &k.gameVersions,
		&n.pending, &n.sent, &n.skipped, &n.failed, &n.twice)
	return n
}

// lostTurns lists the emails of keys that no your-turn row of the outbox
// holds although nothing else took them away: their game is still active,
// at the version it had then. A move since may have dropped or replaced an
// email (turn_mail_next), and a game that ended owes none.
func lostTurns(t *testing.T, dbURL string, keys turnKeys) []string {
	t.Helper()
	var lost []string
	queryRowArgs(t, dbURL, `SELECT coalesce(array_agg(format('game %s seat %s version %s', k.game, k.seat, k.version)), '{}')
		FROM unnest($1::text[], $2::int[], $3::bigint[], $4::bigint[]) AS k(game, seat, version, at)
		JOIN games g ON g.id = k.game AND g.status = 'active' AND g.version = k.at
		WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.kind = 'your_turn' AND o.game_id = k.game
			AND o.seat = k.seat AND o.event_version = k.version)`,
		[]any{keys.games, keys.seats, keys.versions, keys.gameVersions}, &lost)
	return lost
}

// waitFor waits until ok holds, within d; failing, it tells what holds
// instead (state, read only then).
func waitFor(t *testing.T, d time.Duration, ok func() bool, state func() string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", d, state())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitMoves waits until p has n acknowledged moves, within d.
func waitMoves(t *testing.T, p *players, n int, d time.Duration) {
	t.Helper()
	waitFor(t, d, func() bool { return len(p.ackedMoves()) >= n }, func() string {
		return fmt.Sprintf("only %d moves acknowledged of %d (answers %v)", len(p.ackedMoves()), n, p.status)
	})
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
