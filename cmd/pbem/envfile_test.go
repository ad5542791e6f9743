package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEnvFileListsEveryVariable checks that the Debian package's
// environment file (packaging/pbem.env) mentions every PBEM_ variable the
// product's code reads (tests' own variables aside), and DATABASE_URL.
func TestEnvFileListsEveryVariable(t *testing.T) {
	t.Parallel()
	envFile, err := os.ReadFile("../../packaging/pbem.env")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`"(PBEM_[A-Z0-9_]+)"`)
	seen := map[string]bool{"DATABASE_URL": true}
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "data" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "/bench/") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range name.FindAllStringSubmatch(string(src), -1) {
			if !strings.HasPrefix(m[1], "PBEM_TEST_") {
				seen[m[1]] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 20 {
		t.Fatalf("found only %d variables: the walk missed the code", len(seen))
	}
	for v := range seen {
		if !regexp.MustCompile(`(?m)^#?` + v + `=`).Match(envFile) {
			t.Errorf("packaging/pbem.env does not list %s (as %s=... or #%s=...)", v, v, v)
		}
	}
}
