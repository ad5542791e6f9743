package pgcluster

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestPrivateCluster creates, starts, finds running, uses and stops a
// private cluster: the path a machine without a PostgreSQL server takes;
// started again, it listens on the same port, unless another program
// holds that port.
func TestPrivateCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("initdb takes seconds")
	}
	if lookBin() == "" {
		t.Skip("PostgreSQL is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	// As root the server runs as postgres, which must reach the folder.
	for _, d := range []string{tmp, filepath.Dir(tmp)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(tmp, "data", "postgres")
	var log bytes.Buffer
	c, err := Ensure(ctx, dir, false, &log)
	if err != nil {
		t.Fatalf("Ensure: %v\n%s", err, log.String())
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = c.Stop(context.Background())
		}
	})
	if !c.Started() || c.Dir != dir || c.Port == 0 {
		t.Fatalf("cluster %+v, want started in %s", c, dir)
	}
	db := &Database{AdminURL: c.AdminURL(), Source: "private cluster", Cluster: c}
	if err := waitReady(ctx, func(ctx context.Context) error { return ping(ctx, db.AdminURL) }); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateDatabase(ctx, "pbem"); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateDatabase(ctx, "pbem"); err != nil {
		t.Fatalf("CreateDatabase twice: %v", err)
	}
	u, err := db.URL("pbem")
	if err != nil || ping(ctx, u) != nil {
		t.Fatalf("database pbem at %s: %v", u, err)
	}

	again, err := Ensure(ctx, dir, false, &log)
	if err != nil {
		t.Fatal(err)
	}
	if again.Started() || again.Port != c.Port {
		t.Fatalf("second Ensure: started %v port %d, want the running server on %d", again.Started(), again.Port, c.Port)
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if _, ok := c.running(ctx); ok {
		t.Fatal("cluster still running after Stop")
	}
	if ping(ctx, c.AdminURL()) == nil {
		t.Fatal("server still answers after Stop")
	}
	// The data stays: starting again keeps the database. Started with
	// the settings for tests, it runs with them.
	c2, err := Ensure(ctx, dir, false, &log, NoFsync...)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Stop(context.Background())
	db2 := &Database{AdminURL: c2.AdminURL(), Source: "private cluster", Cluster: c2}
	if err := waitReady(ctx, func(ctx context.Context) error { return ping(ctx, db2.AdminURL) }); err != nil {
		t.Fatal(err)
	}
	u2, _ := db2.URL("pbem")
	if err := ping(ctx, u2); err != nil {
		t.Fatalf("database pbem gone after a restart: %v", err)
	}
	conn, err := pgx.Connect(ctx, db2.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range NoFsync {
		name, want, _ := strings.Cut(s, "=")
		var got string
		if err := conn.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&got); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", name, got, err, want)
		}
	}
	conn.Close(ctx)

	// It started again on the port of its last start, so that an
	// operator's psql line keeps working; when another program holds
	// that port, it takes a free one, which the next start reuses.
	if c2.Port != c.Port {
		t.Errorf("started again on port %d, want the last start's %d", c2.Port, c.Port)
	}
	if err := c2.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	held, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(c2.Port)))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	c3, err := Ensure(ctx, dir, false, &log)
	if err != nil {
		t.Fatalf("Ensure with the last port taken: %v\n%s", err, log.String())
	}
	defer c3.Stop(context.Background())
	if c3.Port == c2.Port || !c3.Started() {
		t.Fatalf("started on %d (started %v) while another program held it", c3.Port, c3.Started())
	}
	if got := c3.lastPort(); got != c3.Port {
		t.Errorf("the port remembered is %d, want the new %d", got, c3.Port)
	}
}

func TestOpenPrefersDatabaseURL(t *testing.T) {
	db, err := Open(context.Background(), Options{DatabaseURL: "postgres://u@h:1/x"})
	if err != nil || db.AdminURL != "postgres://u@h:1/x" || db.Cluster != nil {
		t.Fatalf("Open with DATABASE_URL: %+v %v", db, err)
	}
	if u, _ := db.URL("pbem"); u != "postgres://u@h:1/x" {
		t.Errorf("URL: %s, want DATABASE_URL unchanged", u)
	}
	if err := db.Close(context.Background()); err != nil {
		t.Error(err)
	}
}

func TestPidFilePort(t *testing.T) {
	p := filepath.Join(t.TempDir(), "postmaster.pid")
	os.WriteFile(p, []byte("123\n/data\n1700000000\n54321\n\n127.0.0.1\n  1 2\nready   \n"), 0o600)
	if port, err := pidFilePort(p); err != nil || port != 54321 {
		t.Fatalf("port %d, %v", port, err)
	}
}
