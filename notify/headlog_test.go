package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadLog: the log keeps each game's highest version across a
// reopen, writes a line only for a higher version, compacts to one line
// a game when opened, and refuses a file it cannot read.
func TestHeadLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "published-versions")
	h, err := OpenHeadLog(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		game string
		v    int64
	}{{"g1", 3}, {"g1", 7}, {"g2", 2}, {"g1", 5}, {"", 9}, {"g 3", 9}, {"g2", 0}} {
		if err := h.Published(p.game, p.v); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(path)
	if got := string(b); got != "g1 3\ng1 7\ng2 2\n" {
		t.Errorf("the file holds %q, want the versions that rose", got)
	}
	h.Close()
	if h, err = OpenHeadLog(path); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if got := h.Heads(); len(got) != 2 || got["g1"] != 7 || got["g2"] != 2 {
		t.Errorf("reopened: %v", got)
	}
	b, _ = os.ReadFile(path)
	if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); len(lines) != 2 {
		t.Errorf("compacted to %q, want one line a game", b)
	}
	if err := h.Published("g2", 4); err != nil {
		t.Fatal(err)
	}
	if got := h.Heads()["g2"]; got != 4 {
		t.Errorf("g2 after a later email: %d", got)
	}
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, []byte("g1 seven\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenHeadLog(bad); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad line: %v", err)
	}
}
