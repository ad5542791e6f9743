package systest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/cmd/internal/pgcluster"

	"github.com/jackc/pgx/v5"
)

// pgBin is the directory of the PostgreSQL binaries (initdb, pg_ctl,
// pg_dump, pg_restore): the newest /usr/lib/postgresql/*/bin, else that of
// initdb on PATH when pg_dump is beside it.
func pgBin(t testing.TB) string {
	t.Helper()
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	best, bestV := "", 0
	for _, d := range dirs {
		v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(d))))
		if v > bestV {
			best, bestV = filepath.Dir(d), v
		}
	}
	if best != "" {
		return best
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "pg_dump")); err == nil {
			return filepath.Dir(p)
		}
	}
	t.Skip("systest: no PostgreSQL binaries (initdb, pg_dump) on this machine")
	return ""
}

// asServerUser returns a command running name as the user PostgreSQL runs
// as: the current one, or postgres when the current one is root (the server
// refuses to run as root).
func asServerUser(name string, args ...string) *exec.Cmd {
	user := ""
	if os.Geteuid() == 0 {
		user = "postgres"
	}
	return pgcluster.AsUser(context.Background(), user, name, args...)
}

// run runs cmd and fails t with its output when it fails.
func run(t testing.TB, cmd *exec.Cmd) string {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return string(out)
}

// serverDir returns a fresh directory the server user owns: under /var/tmp
// as root (the test's temporary directory may be out of that user's reach),
// else under t.TempDir. It is removed when t ends.
func serverDir(t testing.TB, name string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		return filepath.Join(t.TempDir(), name)
	}
	if _, err := user.Lookup("postgres"); err != nil {
		t.Skip("systest: running as root without a postgres user")
	}
	dir, err := os.MkdirTemp("/var/tmp", "pbem-systest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	run(t, exec.Command("chown", "postgres:", dir))
	return filepath.Join(dir, name)
}

// freePort returns a TCP port of 127.0.0.1 that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// systemTest skips t in short mode (a system test runs real processes) and
// returns when t started, for the figures it logs.
func systemTest(t testing.TB) time.Time {
	t.Helper()
	if testing.Short() {
		t.Skip("system test: real processes")
	}
	return time.Now()
}

// newDatabase starts a private cluster for t (newCluster) and creates its
// database pbem; it returns the cluster and that database's URL.
func newDatabase(t testing.TB) (*pgCluster, string) {
	t.Helper()
	c := newCluster(t)
	return c, c.createDB(t, "pbem")
}

// pgCluster is a private PostgreSQL cluster of one test, on its own port.
type pgCluster struct {
	bin  string
	dir  string
	port int
}

// newCluster creates a cluster (initdb, trust authentication, user
// postgres), starts it, and stops it immediately when t ends.
func newCluster(t testing.TB) *pgCluster {
	t.Helper()
	c := &pgCluster{bin: pgBin(t), dir: serverDir(t, "pg"), port: freePort(t)}
	run(t, asServerUser(filepath.Join(c.bin, "initdb"), "-D", c.dir, "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--no-locale", "--no-sync"))
	conf := fmt.Sprintf("\nlisten_addresses = '127.0.0.1'\nport = %d\nunix_socket_directories = ''\n"+
		"max_connections = 100\nshared_buffers = 32MB\n", c.port)
	f, err := os.OpenFile(filepath.Join(c.dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(conf); err != nil {
		t.Fatal(err)
	}
	f.Close()
	c.start(t)
	t.Cleanup(func() { _ = asServerUser(filepath.Join(c.bin, "pg_ctl"), "-D", c.dir, "-m", "immediate", "stop").Run() })
	return c
}

// start starts the cluster's server and waits until it accepts connections.
func (c *pgCluster) start(t testing.TB) {
	t.Helper()
	run(t, asServerUser(filepath.Join(c.bin, "pg_ctl"), "-D", c.dir, "-l", filepath.Join(c.dir, "server.log"),
		"-w", "-t", "60", "start"))
}

// stopImmediate stops the server the way a power cut would look to it:
// no checkpoint, every backend gone, recovery from the WAL at the next start.
func (c *pgCluster) stopImmediate(t testing.TB) {
	t.Helper()
	run(t, asServerUser(filepath.Join(c.bin, "pg_ctl"), "-D", c.dir, "-m", "immediate", "-w", "stop"))
}

// url returns the URL of database db on the cluster.
func (c *pgCluster) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// createDB creates database name.
func (c *pgCluster) createDB(t testing.TB, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.url("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	return c.url(name)
}
