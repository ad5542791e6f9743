package main

// The hostile-input suite of the serve and migrate commands (issue #29):
// what a careless operator may do, run as real processes.

import (
	"strings"
	"testing"
	"time"
)

// testServeSecret is a PBEM_SECRET serve accepts, for the tests that run it.
const testServeSecret = "cmd/pbem test secret, not a real one: 7f3a"

// TestServeRefusesAWeakSecret: `pbem serve` with PBEM_SECRET=hunter2 (or
// 32 bytes of one letter) does not start; it says how to make a secret.
func TestServeRefusesAWeakSecret(t *testing.T) {
	for _, secret := range []string{"hunter2", strings.Repeat("s", 32)} {
		cmd := pbemCmd(t, []string{"PBEM_SECRET=" + secret, "PBEM_DATA=" + t.TempDir(), "DATABASE_URL=postgres://127.0.0.1:1/none"},
			"serve", "-listen", "127.0.0.1:0")
		done := make(chan struct{})
		var out []byte
		var err error
		go func() { out, err = cmd.CombinedOutput(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("serve with PBEM_SECRET=%q did not exit", secret)
		}
		if err == nil || !strings.Contains(string(out), "openssl rand -hex 32") || strings.Contains(string(out), "listening") {
			t.Errorf("serve with PBEM_SECRET=%q: %v\n%s", secret, err, out)
		}
	}
}
