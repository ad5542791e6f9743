package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pbem/events/postgres/pgtest"
	"pbem/migrations"
)

// TestMain lets the tests run this test binary as the pbem binary: with
// PBEM_TEST_RUN_MAIN=1 it is pbem itself.
func TestMain(m *testing.M) {
	if os.Getenv("PBEM_TEST_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// pbemCmd returns a command running pbem with args and extra environment.
func pbemCmd(t *testing.T, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), append([]string{"PBEM_TEST_RUN_MAIN=1"}, env...)...)
	return cmd
}

// server is a running `pbem serve` child process.
type server struct {
	cmd    *exec.Cmd
	base   string        // http://ADDR, from its "listening on" line
	stderr *lockedBuffer // its log
	stdout *lockedBuffer // what it printed
	exited chan error    // receives its exit status
}

// startServe runs `pbem serve` on a free loopback port with extra
// environment, waits until it listens, and kills it when t ends.
func startServe(t *testing.T, env []string) *server {
	t.Helper()
	cmd := pbemCmd(t, env, "serve", "-listen", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stderr: &lockedBuffer{}, stdout: &lockedBuffer{}, exited: make(chan error, 1)}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			_, _ = s.stdout.Write(append(sc.Bytes(), '\n'))
			if a, ok := strings.CutPrefix(sc.Text(), "pbem: listening on "); ok {
				addr <- a
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		s.exited <- cmd.Wait()
	}()
	select {
	case s.base = <-addr:
	case err := <-s.exited:
		t.Fatalf("serve exited early: %v\n%s", err, s.stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start\n%s", s.stderr.String())
	}
	return s
}

// stop sends SIGTERM and expects a clean exit.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.exited:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGTERM\n%s", err, s.stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not exit after SIGTERM\n%s", s.stderr.String())
	}
}

// lockedBuffer collects a child's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// TestServeEndToEnd starts the real binary on a free port with
// DATABASE_URL set to an empty database: it migrates, answers /healthz with
// 200, and exits cleanly on SIGTERM.
func TestServeEndToEnd(t *testing.T) {
	t.Parallel()
	url := pgtest.NewEmptyDB(t)
	srv := startServe(t, []string{"DATABASE_URL=" + url, "PBEM_DATA=" + t.TempDir()})
	resp, err := http.Get(srv.base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %d %s", resp.StatusCode, body)
	}
	if v, dirty, err := migrations.Version(url); err != nil || dirty || v == 0 {
		t.Errorf("serve did not migrate: version %d dirty %v err %v", v, dirty, err)
	}
	srv.stop(t)
}

func TestHealthzFailsWhenNotMigrated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewEmptyDB(t)
	db := &database{URL: url}
	pool, err := db.pool(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	h := newHandler(handlerDeps{pool: pool, health: healthCheck(pool)})
	get := func() int {
		req, _ := http.NewRequest("GET", "/healthz", nil)
		rec := &recorder{header: http.Header{}}
		h.ServeHTTP(rec, req)
		return rec.code
	}
	if code := get(); code != http.StatusServiceUnavailable {
		t.Errorf("healthz on an empty database: %d, want 503", code)
	}
	if err := migrations.Up(url); err != nil {
		t.Fatal(err)
	}
	if code := get(); code != http.StatusOK {
		t.Errorf("healthz after migrating: %d, want 200", code)
	}
	// The next release migrated further (expand, then contract): this
	// binary stays healthy, and starts, unless the schema is dirty.
	latest, err := migrations.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `UPDATE schema_migrations SET version = $1`, latest+1); err != nil {
		t.Fatal(err)
	}
	if code := get(); code != http.StatusOK {
		t.Errorf("healthz on a schema one migration ahead: %d, want 200", code)
	}
	if err := db.migrate(); err != nil {
		t.Errorf("migrate on a schema one migration ahead: %v", err)
	}
	if _, err := pool.Exec(ctx, `UPDATE schema_migrations SET dirty = true`); err != nil {
		t.Fatal(err)
	}
	if code := get(); code != http.StatusServiceUnavailable {
		t.Errorf("healthz on a dirty schema ahead: %d, want 503", code)
	}
	if err := db.migrate(); err == nil {
		t.Error("migrate on a dirty schema ahead: no error")
	}
}

// recorder is a minimal http.ResponseWriter.
type recorder struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = http.StatusOK
	}
	return r.body.Write(b)
}
func (r *recorder) WriteHeader(code int) { r.code = code }

func TestCommandLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{nil, 2, "usage: pbem"},
		{[]string{"help"}, 0, "usage: pbem"},
		{[]string{"nope"}, 2, `unknown command "nope"`},
		{[]string{"migrate"}, 2, "usage: pbem migrate"},
		{[]string{"migrate", "sideways"}, 2, "usage: pbem migrate"},
		{[]string{"serve", "-nope"}, 1, "flag provided but not defined"},
		{[]string{"db"}, 2, "usage: pbem db"},
		{[]string{"version"}, 0, "pbem dev (commit "},
		{[]string{"version", "x"}, 1, "unexpected arguments"},
		{[]string{"serve"}, 1, "PBEM_TLS_CERT and PBEM_TLS_KEY go together"},
	} {
		var out bytes.Buffer
		getenv := func(k string) string {
			if k == "PBEM_TLS_CERT" && len(tc.args) == 1 && tc.args[0] == "serve" {
				return "cert.pem"
			}
			return ""
		}
		code := run(context.Background(), tc.args, getenv, &out, &out)
		if code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("pbem %v: exit %d, output %q; want %d and %q", tc.args, code, out.String(), tc.code, tc.out)
		}
	}
}

func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	url := pgtest.NewEmptyDB(t)
	env := func(k string) string {
		if k == "DATABASE_URL" {
			return url
		}
		return ""
	}
	latest, _ := migrations.Latest()
	for _, step := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"version"}, 0, "version 0 "},
		{[]string{"up"}, 0, "version " + itoa(latest) + " "},
		{[]string{"down"}, 2, "--all to revert every one"},
		{[]string{"down", "0"}, 2, "not a number of migrations"},
		{[]string{"down", "all"}, 2, "not a number of migrations"},
		{[]string{"version"}, 0, "version " + itoa(latest) + " "},
		{[]string{"down", "2"}, 0, ""}, // two migrations fewer: checked below
		{[]string{"up"}, 0, "version " + itoa(latest) + " "},
		{[]string{"down", "--all"}, 0, "version 0 "},
		{[]string{"up"}, 0, "version " + itoa(latest) + " "},
	} {
		var out bytes.Buffer
		if code := run(context.Background(), append([]string{"migrate"}, step.args...), env, &out, &out); code != step.code || !strings.Contains(out.String(), step.want) {
			t.Fatalf("migrate %v: exit %d, %q; want %d and %q", step.args, code, out.String(), step.code, step.want)
		}
		if step.want == "" {
			if v, _, err := migrations.Version(url); err != nil || v >= latest || v == 0 {
				t.Fatalf("migrate %v: version %d (%v), want between 0 and %d", step.args, v, err, latest)
			}
		}
	}
}

func itoa(v uint) string { return strconv.FormatUint(uint64(v), 10) }

func TestLoadConfigDefaults(t *testing.T) {
	t.Parallel()
	cfg := loadConfig(func(k string) string {
		if k == "PBEM_LISTEN" {
			return " 127.0.0.1:9000 "
		}
		return ""
	})
	if cfg.Listen != "127.0.0.1:9000" || cfg.DataDir != "data" || cfg.DatabaseURL != "" {
		t.Errorf("config %+v", cfg)
	}
}

// TestMaintenanceCommandBadDatabase: a maintenance command whose database
// cannot be opened says why and exits 1 (openService's cleanup once
// panicked on a nil close).
func TestMaintenanceCommandBadDatabase(t *testing.T) {
	t.Parallel()
	env := func(k string) string {
		switch k {
		case "DATABASE_URL":
			return "postgres://nobody@127.0.0.1:1/pbem?connect_timeout=2"
		case "PBEM_DATA":
			return t.TempDir()
		}
		return ""
	}
	var out bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--all"}, env, &out, &out); code != 1 || !strings.Contains(out.String(), "pbem verify: ") {
		t.Errorf("pbem verify --all on a closed port: exit %d, %q; want 1 and the error", code, out.String())
	}
}
