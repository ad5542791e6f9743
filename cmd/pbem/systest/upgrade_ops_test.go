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
const previousRelease = "d68be756c4113562247e7eb0e0c8d63407993c6d"

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
	env := []string{"DATABASE_URL=" + dbURL, fmt.Sprintf("PBEM_SMTP_URL=smtp://%s?tls=none", sink.Addr()), "PBEM_MAIL_FROM=pbem@example.org"}

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
	duringOld := len(pOld.ackedMoves()) - before
	duringNew := 0
	for _, m := range pNew.ackedMoves() {
		if m.at.Before(upgradeEnd) {
			duringNew++
		}
	}
	time.Sleep(3 * time.Second)
	cancelNew()
	waitNew()
	if t.Failed() {
		return
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
		"503: %d, other 5xx: %d, lost: %d; answers %v, %d without answer; %d games verified; %v",
		previousRelease[:12], len(acked), duringOld+duringNew, duringOld, duringNew, upgradeEnd.Sub(upgradeStart).Round(100*time.Millisecond),
		unavailable, other5xx, len(acked)-found, status, pOld.transport+pNew.transport, games, time.Since(start).Round(time.Second))
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
