package enginetest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// CheckCoverageTable checks the table under "# Coverage" in the engine's
// doc.go (one row per rulebook section: the section, two or more spaces,
// then its scenarios separated by commas) against the scenario files
// dir/*ext: no section without a scenario, no scenario named that does not
// exist, no scenario file left out of the table. Run it from the engine's
// package directory.
func CheckCoverageTable(t *testing.T, dir, ext string) {
	t.Helper()
	listed := map[string]bool{}
	for section, scs := range coverageRows(t) {
		if len(scs) == 0 {
			t.Errorf("section %q has no scenario", section)
		}
		for _, sc := range scs {
			listed[sc] = true
			if _, err := os.Stat(filepath.Join(dir, sc+ext)); err != nil {
				t.Errorf("section %q names %s, which does not exist", section, sc)
			}
		}
	}
	files, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if sc := strings.TrimSuffix(filepath.Base(f), ext); !listed[sc] {
			t.Errorf("scenario %s is in no row of the coverage table", sc)
		}
	}
}

// coverageRows reads the rows of doc.go's coverage table.
func coverageRows(t *testing.T) map[string][]string {
	t.Helper()
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "// # Coverage\n")
	if !ok {
		t.Fatal("doc.go has no # Coverage section")
	}
	if i := strings.Index(table, "\n// # "); i >= 0 {
		table = table[:i]
	}
	gap := regexp.MustCompile(`\s{2,}`)
	rows := map[string][]string{}
	header := true
	for _, line := range strings.Split(table, "\n") {
		line, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			continue
		}
		if header {
			header = false
			continue
		}
		parts := gap.Split(strings.TrimSpace(line), 2)
		rows[parts[0]] = nil
		if len(parts) == 2 {
			for _, sc := range strings.Split(parts[1], ",") {
				if sc = strings.TrimSpace(sc); sc != "" {
					rows[parts[0]] = append(rows[parts[0]], sc)
				}
			}
		}
	}
	if len(rows) == 0 {
		t.Fatal("the coverage table is empty")
	}
	return rows
}
