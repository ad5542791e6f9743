package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// layerRules are the imports each part of the module must not have
// (docs/ARCHITECTURE.md): dependencies point inward, pgx lives only in the
// Postgres packages, echo only in api, go-mail only in notify. A package
// matches the longest prefix; "pbem/" stands for every package of ours.
var layerRules = []struct {
	pkg       string   // a package path, or a prefix ending in "/"
	forbidden []string // import paths or prefixes ending in "/"
}{
	{"pbem/engine", []string{"pbem/"}},
	{"pbem/engine/", []string{"pbem/events", "pbem/projections", "pbem/notify", "pbem/api", "pbem/cmd", "github.com/"}},
	{"pbem/events", []string{"pbem/"}},
	{"pbem/events/postgres", []string{"pbem/events/play", "pbem/projections", "pbem/notify", "pbem/api", "pbem/engine"}},
	{"pbem/events/play/postgres", []string{"pbem/api", "pbem/notify", "pbem/cmd", "pbem/bench", "pbem/events/postgres", "pbem/projections/postgres", "github.com/labstack/", "github.com/wneessen/"}},
	{"pbem/events/play", []string{"pbem/api", "pbem/notify", "pbem/events/postgres", "pbem/projections/postgres", "github.com/jackc/", "github.com/labstack/", "github.com/wneessen/"}},
	{"pbem/projections", []string{"pbem/events/play", "pbem/api", "pbem/notify", "pbem/events/postgres", "github.com/jackc/", "github.com/labstack/", "github.com/wneessen/"}},
	{"pbem/projections/postgres", []string{"pbem/events/play", "pbem/api", "pbem/notify", "github.com/labstack/"}},
	{"pbem/notify", []string{"pbem/api", "pbem/events/play", "pbem/events/postgres", "pbem/projections/postgres", "github.com/jackc/", "github.com/labstack/"}},
	{"pbem/notify/postgres", []string{"pbem/api", "pbem/events/play", "github.com/labstack/"}},
	{"pbem/api", []string{"pbem/events/postgres", "pbem/projections/postgres", "pbem/notify/postgres", "github.com/jackc/", "github.com/wneessen/"}},
	{"pbem/api/inbound", []string{"pbem/events/postgres", "pbem/projections/postgres", "pbem/notify/postgres", "github.com/jackc/", "github.com/labstack/", "github.com/wneessen/"}},
	{"pbem/api/clientnet", []string{"pbem/", "github.com/"}},
	{"pbem/migrations", []string{"pbem/"}},
	// The rest of each room: the leaves and test helpers of events,
	// projections and notify, the commands' shared setup, the benchmarks.
	{"pbem/events/", []string{"pbem/api", "pbem/notify", "pbem/cmd", "pbem/bench"}},
	{"pbem/events/tokens", []string{"pbem/"}},
	{"pbem/events/pbemevent", []string{"pbem/events/play", "pbem/projections", "pbem/api", "pbem/notify", "pbem/cmd", "github.com/jackc/"}},
	{"pbem/projections/", []string{"pbem/events/play", "pbem/api", "pbem/notify", "pbem/cmd", "pbem/bench"}},
	{"pbem/notify/", []string{"pbem/api", "pbem/events/play", "pbem/cmd", "pbem/bench"}},
	{"pbem/cmd/", []string{"pbem/bench"}},
	{"pbem/cmd/internal/", []string{"pbem/api", "pbem/notify", "pbem/projections", "pbem/events"}},
	{"pbem/bench/", []string{"pbem/cmd/"}},
}

// TestLayering reads the imports of every product package (test files
// aside) and checks them against layerRules; a package no rule covers (a
// new folder at the top) fails too.
func TestLayering(t *testing.T) {
	t.Parallel()
	pkgs := packageImports(t)
	for _, pkg := range sortedKeys(pkgs) {
		forbidden, ok := rulesOf(pkg)
		if !ok {
			t.Errorf("%s: no rule in layerRules covers it", pkg)
			continue
		}
		for _, p := range sortedKeys(pkgs[pkg]) {
			for _, fb := range forbidden {
				if p == fb || strings.HasPrefix(p, fb) && strings.HasSuffix(fb, "/") || strings.HasPrefix(p, fb+"/") {
					if !strings.HasPrefix(p, pkg+"/") && p != pkg {
						t.Errorf("%s imports %s (%s must not import %s; in %s)", pkg, p, pkg, fb, pkgs[pkg][p])
					}
				}
			}
		}
	}
}

// packageImports reads the imports of every package of the module (test
// files aside, test-only folders left out): for each package path, each
// import path and a file that imports it.
func packageImports(t *testing.T) map[string]map[string]string {
	t.Helper()
	pkgs := map[string]map[string]string{}
	for _, f := range productFiles(t) {
		parsed, err := parser.ParseFile(token.NewFileSet(), f.path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		pkg := "pbem/" + path.Dir(f.rel)
		if pkgs[pkg] == nil {
			pkgs[pkg] = map[string]string{}
		}
		for _, imp := range parsed.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			pkgs[pkg][p] = f.rel
		}
	}
	return pkgs
}

// goFile is a product Go file: its path on disk and from the module root
// (slashes).
type goFile struct{ path, rel string }

// productFiles lists the module's Go files, test files and test-only
// folders (testdata, data, hidden ones) left out.
func productFiles(t *testing.T) []goFile {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var files []goFile
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "data" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		files = append(files, goFile{p, filepath.ToSlash(rel)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("only %d files read: is the module root %s?", len(files), root)
	}
	return files
}

// eventsTable finds SQL that names the events table (events_xid_shift and
// other tables that begin with "events_" are not it) or the archive of
// its finished streams.
var eventsTable = regexp.MustCompile(`(?i)\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+(events|archived_streams)\b([^_]|$)`)

// TestOnlyTheStoreReadsEvents: the events table and its archive
// (archived_streams) meet SQL (a string literal naming them) in the event
// store only (events/postgres; its lookups serve the read side), the
// benchmarks aside, which measure the table itself.
func TestOnlyTheStoreReadsEvents(t *testing.T) {
	t.Parallel()
	for _, f := range productFiles(t) {
		if strings.HasPrefix(f.rel, "events/postgres/") || strings.HasPrefix(f.rel, "bench/") {
			continue
		}
		fset := token.NewFileSet()
		parsed, err := parser.ParseFile(fset, f.path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(parsed, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && eventsTable.MatchString(lit.Value) {
				t.Errorf("%s:%d names the events table outside events/postgres: %.80s", f.rel, fset.Position(lit.Pos()).Line, lit.Value)
			}
			return true
		})
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// rulesOf returns the forbidden imports of pkg: those of the longest
// matching rule.
func rulesOf(pkg string) ([]string, bool) {
	best := -1
	var out []string
	for _, r := range layerRules {
		match := pkg == r.pkg || strings.HasSuffix(r.pkg, "/") && strings.HasPrefix(pkg, r.pkg)
		if match && len(r.pkg) > best {
			best, out = len(r.pkg), r.forbidden
		}
	}
	return out, best >= 0
}
