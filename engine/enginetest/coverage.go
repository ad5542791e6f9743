package enginetest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// CheckCoverageTable checks the table under "# Coverage" in the engine's
// doc.go against the scenario files dir/*ext. A row is a rulebook section
// ending with its tag in brackets, two or more spaces, then the scenarios
// that play it, separated by commas:
//
//	End of round: discard, initiative [discard-initiative]   ruling01_five_turns, game_two_players
//
// A tag is set only by an assertion of the scenario that passed when the
// scenario reached the situation of the row; reached(name) runs the
// scenario name and returns the tags so set. The check fails for a row
// without a tag or a scenario, a tag used twice, a scenario named that does
// not exist or that does not reach its row's tag, a tag reached that no row
// has, and a scenario file in no row. Run it from the engine's package
// directory.
func CheckCoverageTable(t *testing.T, dir, ext string, reached func(name string) map[string]bool) {
	t.Helper()
	rows := coverageRows(t)
	tags := map[string]bool{}
	for _, r := range rows {
		if r.tag == "" {
			t.Errorf("section %q has no [tag]", r.section)
			continue
		}
		if tags[r.tag] {
			t.Errorf("tag %q is on two rows", r.tag)
		}
		tags[r.tag] = true
	}
	listed := map[string]bool{}
	got := map[string]map[string]bool{}
	for _, r := range rows {
		if len(r.scenarios) == 0 {
			t.Errorf("section %q has no scenario", r.section)
		}
		for _, sc := range r.scenarios {
			listed[sc] = true
			if _, err := os.Stat(filepath.Join(dir, sc+ext)); err != nil {
				t.Errorf("section %q names %s, which does not exist", r.section, sc)
				continue
			}
			if got[sc] == nil {
				got[sc] = reached(sc)
			}
			if r.tag != "" && !got[sc][r.tag] {
				t.Errorf("section %q names %s, which never asserts [%s]", r.section, sc, r.tag)
			}
		}
	}
	for sc, set := range got {
		for tag := range set {
			if !tags[tag] {
				t.Errorf("%s asserts [%s], which no row has", sc, tag)
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

// coverageRow is a row of the coverage table.
type coverageRow struct {
	section, tag string
	scenarios    []string
}

var (
	rowGap = regexp.MustCompile(`\s{2,}`)
	rowTag = regexp.MustCompile(`^(.*?)\s*\[([a-z0-9-]+)\]$`)
)

// coverageRows reads the rows of doc.go's coverage table.
func coverageRows(t *testing.T) []coverageRow {
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
	var rows []coverageRow
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
		parts := rowGap.Split(strings.TrimSpace(line), 2)
		r := coverageRow{section: parts[0]}
		if m := rowTag.FindStringSubmatch(parts[0]); m != nil {
			r.section, r.tag = m[1], m[2]
		}
		if len(parts) == 2 {
			for _, sc := range strings.Split(parts[1], ",") {
				if sc = strings.TrimSpace(sc); sc != "" {
					r.scenarios = append(r.scenarios, sc)
				}
			}
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatal("the coverage table is empty")
	}
	return rows
}
