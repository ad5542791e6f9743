package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestDataDirIsInMemoryAndOwnToTheDataFolder: a test run's private
// cluster lives in /dev/shm where the machine has it, in a folder named by
// the data folder, so that two checkouts' test runs do not share one.
func TestTestDataDirIsInMemoryAndOwnToTheDataFolder(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/shm"); err != nil {
		if got := testDataDir("data"); got != "data" {
			t.Fatalf("without /dev/shm: %q, want the data folder", got)
		}
		return
	}
	a, b := testDataDir("data"), testDataDir(filepath.Join(t.TempDir(), "data"))
	if !strings.HasPrefix(a, "/dev/shm/pbem-test-") || !strings.HasPrefix(b, "/dev/shm/pbem-test-") {
		t.Fatalf("test data folders %q and %q, want them in /dev/shm", a, b)
	}
	if a == b {
		t.Fatalf("two data folders share the test cluster's folder %q", a)
	}
	abs, _ := filepath.Abs("data")
	if again := testDataDir(abs); again != a {
		t.Fatalf("the same data folder, relative then absolute: %q then %q", a, again)
	}
}
