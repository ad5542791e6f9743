package pgcluster

import (
	"context"
	"os"
	"os/user"
	"strings"
	"testing"
)

// TestAsUser runs id as the current user, and as root as the user nobody.
func TestAsUser(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	out, err := AsUser(context.Background(), "", "id", "-un").Output()
	if err != nil || strings.TrimSpace(string(out)) != me.Username {
		t.Fatalf("as myself: %q, %v", out, err)
	}
	if os.Geteuid() != 0 {
		t.Skip("running a program as another user needs root")
	}
	out, err = AsUser(context.Background(), "nobody", "id", "-un").Output()
	if err != nil || strings.TrimSpace(string(out)) != "nobody" {
		t.Fatalf("as nobody: %q, %v", out, err)
	}
}
