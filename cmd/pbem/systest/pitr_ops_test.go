//go:build ops

package systest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/notify/smtpsink"
)

// TestPointInTimeRestore rehearses the loss of the database server with
// the backups the package sets up (packaging/pbem-backup-setup, run here on
// a cluster of the test's own): continuous WAL archiving into a pgBackRest
// repository and a full backup, play, an incremental backup, play on, note a moment T while players
// play, lose the cluster (stopped at once, its directory deleted), restore
// it to T with pgBackRest, and check that `pbem verify --all` passes and
// every move acknowledged before T is there.
func TestPointInTimeRestore(t *testing.T) {
	systemTest(t)
	if os.Geteuid() != 0 {
		t.Skip("runs pgBackRest and the setup script as root and postgres")
	}
	if _, err := exec.LookPath("pgbackrest"); err != nil {
		t.Fatal("pgbackrest is not installed (.ci/run installs it)")
	}
	start := time.Now()
	pg, dbURL := newDatabase(t)
	sink := smtpsink.Start(t, smtpsink.Options{})
	in := newInbox(sink)
	env := []string{"DATABASE_URL=" + dbURL, fmt.Sprintf("PBEM_SMTP_URL=smtp://%s?tls=none", sink.Addr()), "PBEM_MAIL_FROM=pbem@example.org"}

	// pgBackRest reaches the cluster over a Unix socket; the setup script
	// writes its settings into conf.d and restarts the cluster.
	work := serverDir(t, "backup")
	sock, repo, confDir := filepath.Join(work, "sock"), filepath.Join(work, "repo"), filepath.Join(work, "pgbackrest")
	for _, d := range []string{work, sock, filepath.Join(pg.dir, "conf.d")} {
		run(t, asServerUser("mkdir", "-p", d))
	}
	appendConf(t, pg, fmt.Sprintf("\nunix_socket_directories = '%s'\ninclude_dir = 'conf.d'\n", sock))
	stanza := fmt.Sprintf("pbemtest%d", pg.port)
	ctl := filepath.Join(pg.bin, "pg_ctl")
	setup := exec.Command(filepath.Join(repoTop(t), "packaging", "pbem-backup-setup"))
	setup.Env = append(os.Environ(), "STANZA="+stanza, "REPO="+repo, "PGBR_MAIN="+filepath.Join(confDir, "pgbackrest.conf"),
		"PGBR_INCLUDE="+filepath.Join(confDir, "conf.d"), "PGSOCKET="+sock, "ENVFILE="+filepath.Join(confDir, "no-pbem.env"), "PGDATA="+pg.dir, fmt.Sprintf("PGPORT=%d", pg.port),
		"PG_CONF="+filepath.Join(pg.dir, "conf.d", "pbem-archive.conf"),
		fmt.Sprintf("RESTART=runuser -u postgres -- %s -D %s -l %s -w -t 60 restart", ctl, pg.dir, filepath.Join(pg.dir, "server.log")))
	run(t, setup)
	var walCompression string
	queryRow(t, dbURL, `SHOW wal_compression`, &walCompression)
	if walCompression == "off" {
		t.Fatalf("after pbem-backup-setup, wal_compression is %q, want lz4 or pglz", walCompression)
	}
	opts := []string{"--config=" + filepath.Join(confDir, "pgbackrest.conf"), "--config-include-path=" + filepath.Join(confDir, "conf.d"),
		"--stanza=" + stanza}
	pgbackrest := func(args ...string) string {
		return run(t, asServerUser("pgbackrest", append(append([]string{}, opts...), args...)...))
	}

	// Play, back up, play on; T falls while players play.
	srv := newServer(t, env...)
	first := playFor(t, srv.base(), in, 4*time.Second)
	pgbackrest("--type=incr", "backup") // on the full one the setup took
	if info := pgbackrest("info"); !strings.Contains(info, "incr backup") || !strings.Contains(info, "full backup") {
		t.Fatalf("pgbackrest info lists no full and incremental backups:\n%s", info)
	}

	p := newPlayers(t, srv.base(), in)
	ctx, cancel := context.WithCancel(context.Background())
	wait := p.run(ctx, 4)
	waitMoves(t, p, 15, 90*time.Second)
	target := time.Now()
	n := len(p.ackedMoves())
	waitMoves(t, p, n+15, 90*time.Second)
	cancel()
	wait()
	if t.Failed() {
		return
	}
	srv.stop()
	// The WAL holding T is archived (check switches to a new segment and
	// waits for the archive of the last one).
	pgbackrest("check")

	// Lose the cluster.
	pg.stopImmediate(t)
	if err := os.RemoveAll(pg.dir); err != nil {
		t.Fatal(err)
	}
	run(t, asServerUser("mkdir", "-m", "0700", pg.dir))

	// Restore to T.
	restoreStart := time.Now()
	pgbackrest("--type=time", "--target="+target.UTC().Format("2006-01-02 15:04:05.000000+00"), "--target-action=promote", "restore")
	pg.start(t)
	waitPromoted(t, dbURL, 120*time.Second)
	restoreTook := time.Since(restoreStart)

	acked := append(first, p.ackedMoves()...)
	var before, after []ackedMove
	for _, m := range acked {
		if m.at.Before(target) {
			before = append(before, m)
		} else {
			after = append(after, m)
		}
	}
	if found := countAcked(t, dbURL, before); found != len(before) {
		t.Errorf("%d of the %d moves acknowledged before the target are in the restored database", found, len(before))
	}
	laterFound := countAcked(t, dbURL, after)
	games := verifyAll(t, env)
	t.Logf("%d moves acknowledged before the target (%d before the incremental backup), all restored; %d of the %d acknowledged after it are in too "+
		"(those committed before it); %d games verified; restore to the target %v; %v in all",
		len(before), len(first), laterFound, len(after), games, restoreTook.Round(100*time.Millisecond), time.Since(start).Round(time.Second))
}

// appendConf appends lines to the cluster's postgresql.conf.
func appendConf(t *testing.T, c *pgCluster, lines string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(c.dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines); err != nil {
		t.Fatal(err)
	}
}

// waitPromoted waits until the server of dbURL accepts connections and is
// out of recovery.
func waitPromoted(t *testing.T, dbURL string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, err := pgx.Connect(ctx, dbURL)
		var inRecovery bool
		if err == nil {
			err = conn.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&inRecovery)
			conn.Close(ctx)
		}
		cancel()
		if err == nil && !inRecovery {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("restored cluster not promoted within %v (err %v, in recovery %v)", d, err, inRecovery)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// repoTop is the repository's top directory.
func repoTop(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatalf("git rev-parse: %v", err)
	}
	return string(out[:len(out)-1])
}
