package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchitectureMapIsTrue reads the package map of docs/ARCHITECTURE.md
// (the fenced block after the heading "## Packages and their imports": one
// line a package, "PACKAGE -> IMPORT IMPORT ...", paths without "pbem/")
// and checks it against the module: every package is on it, it names no
// package that does not exist, and every arrow it draws is an import of
// the package's own files (tests aside).
func TestArchitectureMapIsTrue(t *testing.T) {
	t.Parallel()
	pkgs := packageImports(t)
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(b), "\n## Packages and their imports\n")
	if !ok {
		t.Fatal(`docs/ARCHITECTURE.md has no "## Packages and their imports" section`)
	}
	_, block, ok := strings.Cut(after, "```\n")
	if ok {
		block, _, ok = strings.Cut(block, "```")
	}
	if !ok {
		t.Fatal("the package map is not a fenced block")
	}
	drawn := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		from, to, ok := strings.Cut(line, "->")
		from = "pbem/" + strings.TrimSpace(from)
		if !ok || from == "pbem/" {
			t.Errorf("map line %q: want PACKAGE -> IMPORTS", line)
			continue
		}
		imports, exists := pkgs[from]
		if !exists {
			t.Errorf("the map draws %s, which is no package", from)
			continue
		}
		drawn[from] = true
		for _, imp := range strings.Fields(to) {
			if _, ok := imports["pbem/"+imp]; !ok {
				t.Errorf("the map draws %s -> %s, which it does not import", from, imp)
			}
		}
	}
	for _, pkg := range sortedKeys(pkgs) {
		if !drawn[pkg] {
			t.Errorf("%s is missing from the map in docs/ARCHITECTURE.md", pkg)
		}
	}
}
