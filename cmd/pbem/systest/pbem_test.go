package systest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// pbemBinary is the pbem binary the tests run, built once per test process
// from the tree (go build pbem/cmd/pbem) into a temporary directory.
var pbemBinary struct {
	once sync.Once
	path string
	err  error
}

// binary returns the path of a pbem binary built from the tree.
func binary(t testing.TB) string {
	t.Helper()
	pbemBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "pbem-systest-bin-")
		if err != nil {
			pbemBinary.err = err
			return
		}
		pbemBinary.path = filepath.Join(dir, "pbem")
		out, err := exec.Command("go", "build", "-o", pbemBinary.path, "pbem/cmd/pbem").CombinedOutput()
		if err != nil {
			pbemBinary.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if pbemBinary.err != nil {
		t.Fatal(pbemBinary.err)
	}
	return pbemBinary.path
}

// lockedBuffer is a bytes.Buffer safe for a process's output and a test
// reading it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// server runs `pbem serve` processes one after another on one address, as a
// supervisor would restart a crashed one.
type server struct {
	t    testing.TB
	bin  string   // the pbem binary; "": the tree's (binary)
	addr string   // 127.0.0.1:PORT
	env  []string // DATABASE_URL, PBEM_SMTP_URL, ...
	log  *lockedBuffer
	cmd  *exec.Cmd
	done chan struct{}
}

// newServer starts `pbem serve` with env on a free port of 127.0.0.1; it is
// killed when t ends.
func newServer(t testing.TB, env ...string) *server {
	t.Helper()
	return newServerOn(t, fmt.Sprintf("127.0.0.1:%d", freePort(t)), env...)
}

// newServerOn is newServer on the address addr.
func newServerOn(t testing.TB, addr string, env ...string) *server {
	t.Helper()
	return newServerOf(t, "", addr, env...)
}

// newServerOf is newServerOn running the pbem binary bin ("": the tree's).
func newServerOf(t testing.TB, bin, addr string, env ...string) *server {
	t.Helper()
	// The players propose and confirm many games from one address and IP;
	// the emails of moves go at once (no grace for a take-back), so that
	// the checks can count them.
	env = append([]string{"PBEM_SECRET=" + systestSecret, "PBEM_LIMIT_GAMES_ADDRESS=off", "PBEM_LIMIT_GAMES_IP=off",
		"PBEM_LIMIT_INVITATIONS_ADDRESS=off", "PBEM_LIMIT_INVITATIONS_IP=off", "PBEM_MAIL_GRACE=0s"}, env...)
	s := &server{t: t, bin: bin, addr: addr, env: env, log: &lockedBuffer{}}
	s.start()
	t.Cleanup(func() {
		if s.cmd != nil {
			_ = s.cmd.Process.Kill()
			<-s.done
		}
		if t.Failed() {
			t.Logf("server log (tail):\n%s", tail(s.log.String(), 6000))
		}
	})
	return s
}

// base is the server's URL.
func (s *server) base() string { return "http://" + s.addr }

// start starts a serve process and waits until it listens.
func (s *server) start() {
	s.t.Helper()
	bin := s.bin
	if bin == "" {
		bin = binary(s.t)
	}
	cmd := exec.Command(bin, "serve", "-listen", s.addr)
	cmd.Env = append(os.Environ(), append([]string{"PBEM_DATA=" + s.t.TempDir()}, s.env...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	cmd.Stderr = s.log
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	listening := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "pbem: listening on ") {
				close(listening)
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
		close(s.done)
	}()
	select {
	case <-listening:
	case <-s.done:
		s.t.Fatalf("serve exited at start:\n%s", tail(s.log.String(), 4000))
	case <-time.After(60 * time.Second):
		s.t.Fatalf("serve did not listen within 60 s:\n%s", tail(s.log.String(), 4000))
	}
}

// kill sends SIGKILL to the serve process and waits for it to end.
func (s *server) kill() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		s.t.Fatal(err)
	}
	<-s.done
	s.cmd = nil
}

// stop ends the serve process with SIGTERM (a clean shutdown).
func (s *server) stop() {
	s.t.Helper()
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.t.Fatal("serve did not stop within 30 s of SIGTERM")
	}
	s.cmd = nil
}

// pbem runs a pbem subcommand with the server's environment and returns its
// output and error.
func pbem(t testing.TB, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Env = append(os.Environ(), append([]string{"PBEM_DATA=" + t.TempDir()}, env...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// verifyAll runs `pbem verify --all` and fails t unless every game passes.
// It returns the number of games verified.
func verifyAll(t testing.TB, env []string) int {
	t.Helper()
	out, err := pbem(t, env, "verify", "--all")
	if err != nil {
		t.Fatalf("pbem verify --all: %v\n%s", err, tail(out, 4000))
	}
	var n, failed int
	for _, line := range strings.Split(out, "\n") {
		if _, err := fmt.Sscanf(line, "%d games verified, %d failed", &n, &failed); err == nil {
			break
		}
	}
	if n == 0 || failed != 0 {
		t.Fatalf("pbem verify --all: %d games verified, %d failed\n%s", n, failed, tail(out, 4000))
	}
	return n
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// TestMain removes the binary built for the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if pbemBinary.path != "" {
		_ = os.RemoveAll(filepath.Dir(pbemBinary.path))
	}
	os.Exit(code)
}

// systestSecret is the servers' PBEM_SECRET: the players confirm the games
// they propose with the token the organiser's email would carry.
const systestSecret = "pbem1-f6abb877df1308c4723bc48aafa60668a823d92e229d7027a0251967f4366c8c-b508a754"
