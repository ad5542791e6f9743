package pgcluster

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// command returns a command that runs name as the cluster's user.
func (c *Cluster) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return AsUser(ctx, c.user, name, args...)
}

// AsUser returns a command that runs name with args as user (with
// runuser, else su), or as the current user when user is "": the way to
// run PostgreSQL's programs as root, since the server refuses to run as
// root (the system tests use it too). It runs in "/": the user may not be
// allowed into the current directory (a checkout under /root), which
// initdb and pg_ctl complain about.
func AsUser(ctx context.Context, user, name string, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	switch p, err := exec.LookPath("runuser"); {
	case user == "":
		cmd = exec.CommandContext(ctx, name, args...)
	case err == nil:
		cmd = exec.CommandContext(ctx, p, append([]string{"-u", user, "--", name}, args...)...)
	default:
		quoted := make([]string, 0, len(args)+1)
		for _, a := range append([]string{name}, args...) {
			quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
		}
		cmd = exec.CommandContext(ctx, "su", "-s", "/bin/sh", user, "-c", strings.Join(quoted, " "))
	}
	cmd.Dir = "/"
	return cmd
}

// newSession makes a command start a session of its own.
func newSession() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// serverUser returns the unprivileged user a root-run cluster runs as:
// postgres, created as a system user when missing.
func serverUser(ctx context.Context, log io.Writer) (string, error) {
	const name = "postgres"
	if _, err := user.Lookup(name); err == nil {
		return name, nil
	}
	fmt.Fprintf(log, "cluster: creating system user %s (PostgreSQL refuses to run as root)\n", name)
	out, err := exec.CommandContext(ctx, "useradd", "--system", "--user-group", "--no-create-home",
		"--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", name).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("cluster: useradd %s: %w\n%s", name, err, out)
	}
	return name, nil
}

// findBin returns the directory holding initdb and pg_ctl: that of initdb
// on PATH, else the newest /usr/lib/postgresql/*/bin. When there is none
// and install is set, it installs Debian's postgresql package first.
func findBin(ctx context.Context, install bool, log io.Writer) (string, error) {
	if dir := lookBin(); dir != "" {
		return dir, nil
	}
	if !install {
		return "", fmt.Errorf("cluster: PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin); install it (Debian: apt-get install postgresql) or set DATABASE_URL")
	}
	if err := aptInstall(ctx, log); err != nil {
		return "", err
	}
	if dir := lookBin(); dir != "" {
		return dir, nil
	}
	return "", fmt.Errorf("cluster: no initdb found after installing postgresql")
}

func lookBin() string {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		dir := filepath.Dir(p)
		if _, err := os.Stat(filepath.Join(dir, "pg_ctl")); err == nil {
			return dir
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	return ""
}

// version is the major version in /usr/lib/postgresql/<version>/bin.
func version(binDir string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(binDir)), 64)
	return v
}

// aptInstall installs Debian's postgresql package, as root with apt-get.
func aptInstall(ctx context.Context, log io.Writer) error {
	if os.Geteuid() != 0 {
		return fmt.Errorf("cluster: PostgreSQL is not installed; install it (sudo apt-get install postgresql) or set DATABASE_URL")
	}
	apt, err := exec.LookPath("apt-get")
	if err != nil {
		return fmt.Errorf("cluster: PostgreSQL is not installed and there is no apt-get; install it or set DATABASE_URL")
	}
	fmt.Fprintln(log, "cluster: PostgreSQL is not installed; installing it with apt-get")
	for _, args := range [][]string{{"update"}, {"install", "-y", "--no-install-recommends", "postgresql"}} {
		cmd := exec.CommandContext(ctx, apt, args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("cluster: apt-get %s: %w", args[0], err)
		}
	}
	return nil
}
