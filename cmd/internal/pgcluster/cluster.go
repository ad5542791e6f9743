// Package pgcluster finds or starts the PostgreSQL server pbem uses when it is
// not told which one (DATABASE_URL unset), so that a newcomer's `make run`
// and `make test` work on a machine with PostgreSQL merely installed.
//
// Open picks, in this order:
//  1. DATABASE_URL, when set;
//  2. a server already answering on 127.0.0.1:5432 as user postgres
//     without a password (a developer's or CI's server);
//  3. a private cluster under the data folder (<data>/postgres), created
//     with the machine's initdb and started with pg_ctl on 127.0.0.1, on
//     the port of its last start when that port is free (kept in the
//     cluster's pbem.port), else on a free port, trust authentication,
//     user postgres. initdb and pg_ctl are
//     looked up on PATH, then under /usr/lib/postgresql/*/bin (the newest);
//     if there are none, Open can install Debian's postgresql package with
//     apt-get (as root, when Options.Install is set).
//
// PostgreSQL refuses to run as root: as root, the private cluster runs as the
// user postgres (created as a system user if missing) through runuser (or
// su). Its data folder then belongs to that user; when that user cannot
// reach it (a checkout under /root, say), the cluster lives under
// /var/tmp/pbem-postgres-<hash of the data folder> instead.
//
// The private cluster keeps its data between runs. Whoever started it stops
// it (Database.Close): `pbem serve` when it ends, `pbem db exec` after its
// command.
package pgcluster

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Cluster is a private PostgreSQL cluster in a directory.
type Cluster struct {
	// Dir is the cluster's data directory.
	Dir string
	// Port is the TCP port it listens on (127.0.0.1), once running.
	Port int

	bin  string // directory of initdb, pg_ctl
	user string // the user it runs as ("" for the current one)
	log  io.Writer
	// started is true when Ensure started the server (rather than finding
	// it running).
	started bool
	// settings are server settings (name=value) given to a server that
	// Ensure starts.
	settings []string
}

// NoFsync are the settings of a cluster for tests only: no fsync, no
// full-page images, commits not waiting for the WAL's flush. A crash of
// PostgreSQL loses nothing with them (what it wrote is in the machine's
// page cache); a crash of the machine may lose or corrupt the cluster's
// data. No test depends on more: the crash tests (cmd/pbem/systest) kill
// pbem or stop PostgreSQL "immediate", never the machine, on clusters of
// their own; the WAL tests read records with pg_walinspect leaving
// full-page images out, up to pgtest.FlushedLSN, which flushes with
// synchronous_commit on in its own transaction.
var NoFsync = []string{"fsync=off", "full_page_writes=off", "synchronous_commit=off"}

// AdminURL returns the URL of the cluster's postgres database, as its
// superuser postgres.
func (c *Cluster) AdminURL() string { return c.URL("postgres") }

// URL returns the URL of database db on the cluster.
func (c *Cluster) URL(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.Port, db)
}

// Started reports whether Ensure started the server, as opposed to finding it
// already running.
func (c *Cluster) Started() bool { return c.started }

// Ensure makes sure a cluster exists in dir and runs, creating it with
// initdb if dir holds none, and returns it. Progress goes to log. When
// install is true and no initdb is found, it installs PostgreSQL with
// apt-get first (root only). A server it starts runs with settings
// (name=value, such as NoFsync) for as long as it runs; a server already
// running keeps its own.
func Ensure(ctx context.Context, dir string, install bool, log io.Writer, settings ...string) (*Cluster, error) {
	if log == nil {
		log = io.Discard
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	bin, err := findBin(ctx, install, log)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Dir: abs, bin: bin, log: log, settings: settings}
	if os.Geteuid() == 0 {
		if c.user, err = serverUser(ctx, log); err != nil {
			return nil, err
		}
		if c.Dir, err = c.reachableDir(ctx, abs); err != nil {
			return nil, err
		}
	} else if err := os.MkdirAll(c.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if _, err := os.Stat(filepath.Join(c.Dir, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		if err := c.initdb(ctx); err != nil {
			return nil, err
		}
	}
	if port, ok := c.running(ctx); ok {
		c.Port = port
		return c, nil
	}
	if err := c.start(ctx); err != nil {
		return nil, err
	}
	return c, nil
}

// Find returns the cluster Ensure would use for dir, if one exists, and
// whether its server runs. It creates, starts and installs nothing.
func Find(ctx context.Context, dir string, log io.Writer) (*Cluster, bool, error) {
	if log == nil {
		log = io.Discard
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, false, fmt.Errorf("cluster: %w", err)
	}
	bin := lookBin()
	if bin == "" {
		return nil, false, nil
	}
	c := &Cluster{Dir: abs, bin: bin, log: log}
	candidates := []string{abs}
	if os.Geteuid() == 0 {
		if _, err := user.Lookup("postgres"); err != nil {
			return nil, false, nil
		}
		c.user = "postgres"
		candidates = append(candidates, fallbackDir(abs))
	}
	for _, d := range candidates {
		if _, err := os.Stat(filepath.Join(d, "PG_VERSION")); err == nil {
			c.Dir = d
			port, ok := c.running(ctx)
			c.Port = port
			return c, ok, nil
		}
	}
	return nil, false, nil
}

// reachableDir prepares dir for the server user (as root): created, owned by
// that user, and reachable by it through its parents. When it is not, it
// returns a folder of /var/tmp named after dir instead.
func (c *Cluster) reachableDir(ctx context.Context, dir string) (string, error) {
	for i, d := range []string{dir, fallbackDir(dir)} {
		// Parents the server user must traverse; the cluster itself is private.
		if err := os.MkdirAll(filepath.Dir(d), 0o755); err != nil {
			return "", fmt.Errorf("cluster: %w", err)
		}
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("cluster: %w", err)
		}
		if err := exec.CommandContext(ctx, "chown", c.user+":", d).Run(); err != nil {
			return "", fmt.Errorf("cluster: chown %s to %s: %w", d, c.user, err)
		}
		if err := c.command(ctx, "test", "-r", d, "-a", "-w", d, "-a", "-x", d).Run(); err == nil {
			if i > 0 {
				fmt.Fprintf(c.log, "cluster: user %s cannot reach %s; using %s\n", c.user, dir, d)
			}
			return d, nil
		}
	}
	return "", fmt.Errorf("cluster: user %s can reach neither %s nor %s", c.user, dir, fallbackDir(dir))
}

// fallbackDir is where a root-run cluster lives when its user cannot reach dir.
func fallbackDir(dir string) string {
	h := sha256.Sum256([]byte(dir))
	return filepath.Join("/var/tmp", "pbem-postgres-"+hex.EncodeToString(h[:6]))
}

func (c *Cluster) initdb(ctx context.Context) error {
	fmt.Fprintf(c.log, "cluster: creating a PostgreSQL cluster in %s\n", c.Dir)
	cmd := c.command(ctx, filepath.Join(c.bin, "initdb"), "-D", c.Dir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("cluster: initdb: %w\n%s", err, out)
	}
	// TCP on 127.0.0.1 only, no Unix socket (its default directory may not
	// exist or be writable); room for many test pools.
	conf := "\n# pbem private cluster\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nmax_connections = 200\n"
	f, err := os.OpenFile(filepath.Join(c.Dir, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	if _, err := f.WriteString(conf); err != nil {
		f.Close()
		return fmt.Errorf("cluster: %w", err)
	}
	return f.Close()
}

// running reports whether the cluster's server runs, and its port.
func (c *Cluster) running(ctx context.Context) (int, bool) {
	if err := c.command(ctx, filepath.Join(c.bin, "pg_ctl"), "-D", c.Dir, "status").Run(); err != nil {
		return 0, false
	}
	port, err := pidFilePort(filepath.Join(c.Dir, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	return port, true
}

// pidFilePort reads the port from a postmaster.pid file (its 4th line).
func pidFilePort(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 1; sc.Scan(); i++ {
		if i == 4 {
			return strconv.Atoi(strings.TrimSpace(sc.Text()))
		}
	}
	return 0, fmt.Errorf("cluster: %s has no port line", path)
}

// start starts the server on the port of its last start (lastPort) when
// that port is free, so that an operator's psql line keeps working from
// one run to the next, else on a free port, and remembers the port. A
// port is free when chosen but may be taken before the server binds it:
// then it tries another.
func (c *Cluster) start(ctx context.Context) error {
	logFile := filepath.Join(c.Dir, "server.log")
	port := c.lastPort()
	for attempt := 1; ; attempt++ {
		if port == 0 || !portFree(port) {
			var err error
			if port, err = freePort(); err != nil {
				return err
			}
		}
		opts := fmt.Sprintf("-p %d", port)
		for _, s := range c.settings {
			opts += " -c " + s
		}
		fmt.Fprintf(c.log, "cluster: starting PostgreSQL (%s) on 127.0.0.1:%d %v\n", c.Dir, port, c.settings)
		before, _ := os.ReadFile(logFile)
		cmd := c.command(ctx, filepath.Join(c.bin, "pg_ctl"), "-D", c.Dir, "-l", logFile,
			"-w", "-t", "120", "-o", opts, "start")
		// Its own session: a Ctrl-C meant for `make run` must reach pbem,
		// which then stops the server in order, not the server directly.
		cmd.SysProcAttr = newSession()
		out, err := cmd.CombinedOutput()
		if err == nil {
			c.Port, c.started = port, true
			c.rememberPort(port)
			return nil
		}
		after, _ := os.ReadFile(logFile)
		logged := string(after[min(len(before), len(after)):])
		if attempt < 3 && strings.Contains(logged, "could not bind") {
			port = 0
			continue
		}
		return fmt.Errorf("cluster: pg_ctl start: %w\n%s\n%s", err, out, tail([]byte(logged), 2000))
	}
}

// portFile is the file of the cluster's data directory that holds the
// port of its last start (PostgreSQL leaves files it does not know alone).
const portFile = "pbem.port"

// lastPort is the port the cluster last started on, 0 if it is not known.
func (c *Cluster) lastPort() int {
	b, err := os.ReadFile(filepath.Join(c.Dir, portFile))
	if err != nil {
		return 0
	}
	port, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || port <= 0 || port > 65535 {
		return 0
	}
	return port
}

// rememberPort records port as the one the cluster started on. Not
// recording it only costs the next start its port: the failure is logged.
func (c *Cluster) rememberPort(port int) {
	if err := os.WriteFile(filepath.Join(c.Dir, portFile), []byte(strconv.Itoa(port)+"\n"), 0o600); err != nil {
		fmt.Fprintf(c.log, "cluster: the port will not be the same next time: %v\n", err)
	}
}

// Stop stops the cluster's server (fast shutdown: running transactions are
// rolled back) and waits for it.
func (c *Cluster) Stop(ctx context.Context) error {
	fmt.Fprintf(c.log, "cluster: stopping PostgreSQL (%s)\n", c.Dir)
	out, err := c.command(ctx, filepath.Join(c.bin, "pg_ctl"), "-D", c.Dir, "-m", "fast", "-w", "-t", "60", "stop").CombinedOutput()
	if err != nil {
		return fmt.Errorf("cluster: pg_ctl stop: %w\n%s", err, out)
	}
	return nil
}

// portFree reports whether port of 127.0.0.1 is free at the time of the
// call.
func portFree(port int) bool {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// freePort returns a TCP port of 127.0.0.1 free at the time of the call.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("cluster: find a free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// waitReady polls connect until it succeeds or ctx ends.
func waitReady(ctx context.Context, connect func(context.Context) error) error {
	var err error
	for {
		if err = connect(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: server not ready: %w", err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
