package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"pbem/events/postgres/pgtest"
)

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

// TestServeWithoutSMTPUsesTheDevMailbox starts serve with no PBEM_SMTP_URL,
// creates a game, and finds the invitations at /dev/mail with clickable
// play links, logged one line each without the token.
func TestServeWithoutSMTPUsesTheDevMailbox(t *testing.T) {
	url := pgtest.NewEmptyDB(t)
	cmd := pbemCmd(t, []string{"DATABASE_URL=" + url, "PBEM_DATA=" + t.TempDir(), "PBEM_SMTP_URL=", "PBEM_SECRET=mail test"},
		"serve", "-listen", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	addr := make(chan string, 1)
	exited := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "pbem: listening on "); ok {
				addr <- a
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		exited <- cmd.Wait()
	}()
	var base string
	select {
	case base = <-addr:
	case err := <-exited:
		t.Fatalf("serve exited early: %v\n%s", err, stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start\n%s", stderr.String())
	}

	body := `{"game":"lords-of-scotland","language":"fr","players":[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}]}`
	resp, err := http.Post(base+"/api/v1/games", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID string `json:"id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		t.Fatalf("create: %s", resp.Status)
	}

	link := regexp.MustCompile(`<a href="(http://[^"]*/play/` + created.ID + `\?token=[^"]+)">`)
	var page string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		resp, err := http.Get(base + "/dev/mail")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page = string(b)
		if len(link.FindAllString(page, -1)) >= 2 {
			break
		}
	}
	if got := link.FindAllStringSubmatch(page, -1); len(got) < 2 {
		t.Fatalf("/dev/mail has no two play links:\n%s", page)
	}
	if !strings.Contains(page, "vous êtes invité") {
		t.Errorf("the invitation is not in French:\n%s", page)
	}
	logs := stderr.String()
	if strings.Count(logs, "dev mail") < 2 || strings.Contains(logs, "token=") {
		t.Errorf("logs:\n%s", logs)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("serve exited with %v after SIGTERM\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("serve did not exit after SIGTERM\n%s", stderr.String())
	}
}
