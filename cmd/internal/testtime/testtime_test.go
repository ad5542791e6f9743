package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testdata/events.json is `go test -json` of two packages: a passes
// TestPass (with a log line), skips TestSkip and fails TestFail through a
// subtest; b panics in TestPanics.

// TestTrackPrintsAsGoTestAndKeepsTheExitCode: a track prints the package
// lines and the failing tests' output, not the passing tests' output nor
// test2json's framing, exits as its command did, and records each
// package's and test's outcome.
func TestTrackPrintsAsGoTestAndKeepsTheExitCode(t *testing.T) {
	dir := t.TempDir()
	var out strings.Builder
	code, err := runTrack("demo", dir, []string{"sh", "-c", "cat testdata/events.json; exit 1"}, &out, os.Stderr)
	if err != nil || code != 1 {
		t.Fatalf("code %d, err %v; want the command's 1", code, err)
	}
	for _, want := range []string{"the sub failed", "--- FAIL: TestFail/sub_bad", "FAIL\texample.org/tt/a\t", "before the panic", "panic: boom", "FAIL\texample.org/tt/b\t"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, unwanted := range []string{"quiet when passing", "=== RUN", "--- PASS", "\nPASS\n"} {
		if strings.Contains(out.String(), unwanted) {
			t.Errorf("output has %q:\n%s", unwanted, out.String())
		}
	}
	rec := readRecord(t, filepath.Join(dir, "demo.json"))
	if rec.Passed != 2 || rec.Failed != 3 || rec.Skipped != 1 || rec.ExitCode != 1 || len(rec.Packages) != 2 || len(rec.Tests) != 4 {
		t.Errorf("record %+v: want 2 passed, 3 failed, 1 skipped, exit 1, 2 packages, 4 top-level tests", rec)
	}
}

// TestTrackFailsWhenATestFailedThoughItsCommandPassed: the events decide
// too, so that a pipeline that lost go test's status still fails.
func TestTrackFailsWhenATestFailedThoughItsCommandPassed(t *testing.T) {
	code, err := runTrack("demo", t.TempDir(), []string{"sh", "-c", "cat testdata/events.json"}, &strings.Builder{}, os.Stderr)
	if err != nil || code != 1 {
		t.Fatalf("code %d, err %v; want 1", code, err)
	}
}

// TestReportTablesAndClosingLine: the report lists each track, package and
// slow test with the previous report's time beside it, names the failed
// tracks, ends with the closing count line (a track failing with no test
// failing, as vet does, counts one), and fails when a track failed.
func TestReportTablesAndClosingLine(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	for _, rec := range []Record{
		{Track: "race", Wall: 100, ExitCode: 0, Passed: 5,
			Packages: []Timing{{Package: "pbem/api", Elapsed: 90, Action: "pass"}},
			Tests:    []Timing{{Package: "pbem/api", Test: "TestSlow", Elapsed: 40, Action: "pass"}}},
		{Track: "plain", Wall: 50, ExitCode: 1, Passed: 3, Failed: 1, Skipped: 2,
			Packages: []Timing{{Package: "pbem/engine", Elapsed: 45, Action: "fail"}},
			Tests:    []Timing{{Package: "pbem/engine", Test: "TestBroken", Elapsed: 2, Action: "fail"}}},
		{Track: "vet", Wall: 20, ExitCode: 2},
	} {
		if err := writeRecord(dir, rec); err != nil {
			t.Fatal(err)
		}
	}
	var first strings.Builder
	code, err := printReport(dir, &first)
	if err != nil || code != 1 {
		t.Fatalf("code %d, err %v; want 1 (a track failed)", code, err)
	}
	for _, want := range []string{"race", "100.0s", "pbem/api", "pbem/engine FAIL", "TestSlow", "pbem/engine TestBroken FAIL", "failed tracks: plain (exit 1), vet (exit 2)", "\ntests: 8 passed, 2 failed, 2 skipped\n"} {
		if !strings.Contains(first.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, first.String())
		}
	}
	if !strings.HasSuffix(first.String(), "tests: 8 passed, 2 failed, 2 skipped\n") {
		t.Errorf("the count is not the last line:\n%s", first.String())
	}
	var second strings.Builder
	if _, err := printReport(dir, &second); err != nil {
		t.Fatal(err)
	}
	// The second report shows the first's times as "last".
	if !strings.Contains(second.String(), "90.0s  90.0s") || !strings.Contains(second.String(), "40.0s  40.0s") {
		t.Errorf("the second report does not show the last times:\n%s", second.String())
	}
}

func readRecord(t *testing.T, path string) Record {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestPackageFailingWithoutAFailedTestCounts: a build error fails its
// package, and the count says so.
func TestPackageFailingWithoutAFailedTestCounts(t *testing.T) {
	p := newPrinter(&strings.Builder{})
	err := p.read(strings.NewReader(`{"Action":"build-output","ImportPath":"x [x.test]","Output":"x.go:1: syntax error\n"}
{"Action":"output","Package":"x","Output":"FAIL\tx [build failed]\n"}
{"Action":"fail","Package":"x","Elapsed":0}
`))
	var rec Record
	p.fill(&rec)
	if err != nil || rec.Failed != 1 || rec.Passed != 0 {
		t.Fatalf("record %+v, err %v: want 1 failed", rec, err)
	}
}
