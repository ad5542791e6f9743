package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestTableWritersAreTrue reads the table of docs/ARCHITECTURE.md's "##
// Who writes which table" (one row a table of the schema, then the
// packages whose SQL writes it) and checks it against the code: every
// table the migrations leave is a row, and a row names exactly the
// packages (tests and benchmarks aside) with a string literal that
// inserts into, updates or deletes from that table.
func TestTableWritersAreTrue(t *testing.T) {
	t.Parallel()
	tables := schemaTables(t)
	written := tableWriters(t, tables)
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Who writes which table\n")
	if !ok {
		t.Fatal(`docs/ARCHITECTURE.md has no "## Who writes which table" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	documented := map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(line, "| `") {
			continue
		}
		table := strings.Trim(strings.TrimSpace(cells[1]), "`")
		var pkgs []string
		for _, p := range strings.Split(cells[2], ",") {
			if p = strings.Trim(strings.TrimSpace(p), "`"); p != "" {
				pkgs = append(pkgs, p)
			}
		}
		slices.Sort(pkgs)
		documented[table] = pkgs
	}
	for table := range tables {
		want, ok := documented[table]
		if !ok {
			t.Errorf("table %s is in the schema but not in docs/ARCHITECTURE.md's table of writers (written by %v)", table, written[table])
			continue
		}
		if got := written[table]; !slices.Equal(got, want) {
			t.Errorf("table %s: docs/ARCHITECTURE.md says it is written by %v; the code's SQL writes it in %v", table, want, got)
		}
	}
	for table := range documented {
		if !tables[table] {
			t.Errorf("docs/ARCHITECTURE.md lists writers of %s, which the migrations do not leave", table)
		}
	}
}

// schemaTables returns the tables the migrations leave: those a .up.sql
// file creates and no later one drops.
func schemaTables(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "migrations", "*.up.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no migrations: %v", err)
	}
	slices.Sort(files)
	create := regexp.MustCompile(`(?i)\bCREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([a-z_][a-z0-9_]*)`)
	drop := regexp.MustCompile(`(?i)\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?([a-z_][a-z0-9_]*)`)
	tables := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range create.FindAllStringSubmatch(string(b), -1) {
			tables[m[1]] = true
		}
		for _, m := range drop.FindAllStringSubmatch(string(b), -1) {
			delete(tables, m[1])
		}
	}
	if len(tables) < 10 {
		t.Fatalf("found only %d tables in the migrations", len(tables))
	}
	return tables
}

// tableWriters maps each table of tables to the packages (paths without
// "pbem/", sorted) whose non-test files hold a string literal that writes
// it: INSERT INTO, UPDATE or DELETE FROM the table. Benchmarks are left
// out: they are not the product.
func tableWriters(t *testing.T, tables map[string]bool) map[string][]string {
	t.Helper()
	write := regexp.MustCompile(`(?i)\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_][a-z0-9_]*)`)
	found := map[string]map[string]bool{}
	for _, f := range productFiles(t) {
		pkg := path.Dir(f.rel)
		if strings.HasPrefix(pkg, "bench/") {
			continue
		}
		file, err := parser.ParseFile(token.NewFileSet(), f.path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range write.FindAllStringSubmatch(s, -1) {
				if table := strings.ToLower(m[1]); tables[table] {
					if found[table] == nil {
						found[table] = map[string]bool{}
					}
					found[table][pkg] = true
				}
			}
			return true
		})
	}
	out := map[string][]string{}
	for table, pkgs := range found {
		out[table] = sortedKeys(pkgs)
	}
	return out
}
