//go:build ha

package systest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// formation is a pg_auto_failover formation on this machine: a monitor and
// two PostgreSQL nodes (primary and synchronous standby), each run by its
// own `pg_autoctl` process on its own port of 127.0.0.1.
type formation struct {
	t     testing.TB
	dir   string
	bin   string   // PostgreSQL binaries (pg_ctl)
	env   []string // for pg_autoctl: its config and state under dir
	ports map[string]int
	procs map[string]*exec.Cmd
}

// monitorSettings make the monitor declare a silent primary failed within a
// few seconds (the defaults take about 30 s): health checks every second,
// one retry, and no wait for a demotion the dead primary cannot report.
var monitorSettings = map[string]string{
	"pgautofailover.health_check_period":               "1000",
	"pgautofailover.health_check_timeout":              "1000",
	"pgautofailover.health_check_max_retries":          "1",
	"pgautofailover.health_check_retry_delay":          "500",
	"pgautofailover.node_considered_unhealthy_timeout": "2000",
	"pgautofailover.primary_demote_timeout":            "2000",
}

// newFormation creates and starts a formation with node1 as primary and
// node2 as its synchronous standby, and kills it all when t ends.
func newFormation(t testing.TB) *formation {
	t.Helper()
	if _, err := exec.LookPath("pg_autoctl"); err != nil {
		t.Fatal("pg_autoctl not found: install postgresql-15-auto-failover and pg-auto-failover-cli")
	}
	f := &formation{t: t, dir: filepath.Dir(serverDir(t, "x")), bin: pgBin(t), ports: map[string]int{},
		procs: map[string]*exec.Cmd{}}
	f.env = []string{"XDG_CONFIG_HOME=" + f.path("config"), "XDG_DATA_HOME=" + f.path("share"),
		"XDG_RUNTIME_DIR=" + f.path("run"), "PATH=" + f.bin + ":" + os.Getenv("PATH")}
	for _, n := range []string{"monitor", "node1", "node2"} {
		f.ports[n] = freePort(t)
	}
	t.Cleanup(f.destroy)

	run(t, f.autoctl("create", "monitor", "--pgdata", f.path("monitor"), "--pgport", fmt.Sprint(f.ports["monitor"]),
		"--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl"))
	f.start("monitor", "run", "--pgdata", f.path("monitor"))
	f.waitMonitor()
	for _, node := range []string{"node1", "node2"} {
		f.start(node, "create", "postgres", "--pgdata", f.path(node), "--pgport", fmt.Sprint(f.ports[node]),
			"--listen", "127.0.0.1", "--hostname", "127.0.0.1", "--name", node, "--dbname", "pbem",
			"--monitor", f.monitorURL("autoctl_node"), "--auth", "trust", "--no-ssl", "--run")
		want := map[string]string{"node1": "single"}
		if node == "node2" {
			want = map[string]string{"node1": "primary", "node2": "secondary"}
		}
		f.waitStates(want, 120*time.Second)
	}
	return f
}

// path returns a path under the formation's directory.
func (f *formation) path(name string) string { return filepath.Join(f.dir, name) }

// monitorURL is the monitor database's URL as user.
func (f *formation) monitorURL(user string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/pg_auto_failover?sslmode=disable", user, f.ports["monitor"])
}

// URL is the application's multi-host URL: whichever node is read-write.
func (f *formation) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d,127.0.0.1:%d/pbem?target_session_attrs=read-write&sslmode=disable&connect_timeout=2",
		f.ports["node1"], f.ports["node2"])
}

// autoctl returns a pg_autoctl command run as the server user.
func (f *formation) autoctl(args ...string) *exec.Cmd {
	return asServerUser("env", append(append(append([]string{}, f.env...), "pg_autoctl"), args...)...)
}

// start runs a pg_autoctl service in a process group of its own, so that
// kill takes it down with its PostgreSQL.
func (f *formation) start(name string, args ...string) {
	f.t.Helper()
	cmd := f.autoctl(args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logf, err := os.Create(filepath.Join(f.t.TempDir(), name+".log"))
	if err != nil {
		f.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		f.t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); logf.Close() }()
	f.procs[name] = cmd
}

// kill sends SIGKILL to the process group of a node's pg_autoctl: the
// keeper and its PostgreSQL (postmaster and backends) vanish at once, as on
// a power cut. Killing the postmaster alone would not do: its keeper would
// restart it.
func (f *formation) kill(name string) {
	f.t.Helper()
	if err := syscall.Kill(-f.procs[name].Process.Pid, syscall.SIGKILL); err != nil {
		f.t.Fatal(err)
	}
}

// destroy kills every service and stops any PostgreSQL left.
func (f *formation) destroy() {
	for _, c := range f.procs {
		_ = syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
	}
	for _, n := range []string{"node1", "node2", "monitor"} {
		_ = asServerUser(filepath.Join(f.bin, "pg_ctl"), "-D", f.path(n), "-m", "immediate", "stop").Run()
	}
}

// waitMonitor waits until the monitor accepts connections, then applies
// monitorSettings.
func (f *formation) waitMonitor() {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, f.monitorURL("postgres"))
		if err == nil {
			defer conn.Close(ctx)
			for k, v := range monitorSettings {
				if _, err := conn.Exec(ctx, fmt.Sprintf("ALTER SYSTEM SET %s = '%s'", k, v)); err != nil {
					f.t.Fatal(err)
				}
			}
			if _, err := conn.Exec(ctx, "SELECT pg_reload_conf()"); err != nil {
				f.t.Fatal(err)
			}
			return
		}
		if ctx.Err() != nil {
			f.t.Fatalf("monitor not up: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// states returns each node's reported state, from the monitor.
func (f *formation) states(ctx context.Context) (map[string]string, error) {
	conn, err := pgx.Connect(ctx, f.monitorURL("postgres"))
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT nodename, reportedstate::text FROM pgautofailover.node`)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for rows.Next() {
		var n, s string
		if err := rows.Scan(&n, &s); err != nil {
			return nil, err
		}
		out[n] = s
	}
	return out, rows.Err()
}

// waitStates waits until every node of want reports its state. Meanwhile it
// asks node1 for a checkpoint every few seconds: a standby's base backup
// otherwise waits for a spread checkpoint, minutes long.
func (f *formation) waitStates(want map[string]string, d time.Duration) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var got map[string]string
	for i := 0; ; i++ {
		var err error
		got, err = f.states(ctx)
		ok := err == nil
		for n, s := range want {
			ok = ok && got[n] == s
		}
		if ok {
			return
		}
		if ctx.Err() != nil {
			f.t.Fatalf("formation states %v, want %v (%v)", got, want, err)
		}
		if i%10 == 5 {
			f.checkpoint(ctx, "node1")
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// checkpoint asks a node for a checkpoint, ignoring failures (it may not be
// up yet).
func (f *formation) checkpoint(ctx context.Context, node string) {
	conn, err := pgx.Connect(ctx, fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", f.ports[node]))
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	_, _ = conn.Exec(ctx, "CHECKPOINT")
}

// syncStandbys returns the primary's synchronous_standby_names.
func (f *formation) syncStandbys(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, f.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var s string
	if err := conn.QueryRow(ctx, "SHOW synchronous_standby_names").Scan(&s); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(s)
}
