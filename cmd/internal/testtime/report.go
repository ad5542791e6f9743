package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// slowest is how many tests the report lists.
const slowest = 15

// printReport prints the table of the records in dir beside the previous
// report's times, saves this report's times for the next, and returns 1
// when a track failed.
func printReport(dir string, w io.Writer) (int, error) {
	recs, err := readRecords(dir)
	if err != nil {
		return 1, err
	}
	if len(recs) == 0 {
		return 1, fmt.Errorf("no track recorded in %s", dir)
	}
	lastPath := filepath.Join(filepath.Dir(filepath.Clean(dir)), "test-times-last.json")
	last := map[string]float64{}
	if b, err := os.ReadFile(lastPath); err == nil {
		_ = json.Unmarshal(b, &last)
	}
	now := map[string]float64{}
	before := func(key string, s float64) string {
		now[key] = s
		if l, ok := last[key]; ok {
			return fmtSeconds(l)
		}
		return "-"
	}

	code := 0
	var passed, failed, skipped int
	first, end := recs[0].Start, recs[0].Start
	fmt.Fprintln(w, "\n== Where the time went (wall clock; \"last\" is the previous make test on this machine) ==")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "track\twall\tlast\tload at start\tload at end\ttests\tfailed\texit\t")
	var failedTracks []string
	for _, r := range recs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%.1f\t%d\t%d\t%d\t\n", r.Track, fmtSeconds(r.Wall), before("track "+r.Track, r.Wall),
			r.LoadFrom, r.LoadTo, r.Passed+r.Failed+r.Skipped, r.Failed, r.ExitCode)
		passed, failed, skipped = passed+r.Passed, failed+r.Failed, skipped+r.Skipped
		if r.ExitCode != 0 {
			code = 1
			failedTracks = append(failedTracks, fmt.Sprintf("%s (exit %d)", r.Track, r.ExitCode))
			if r.Failed == 0 {
				// A track that failed with no test failing (vet, a
				// build) counts as one failure.
				failed++
			}
		}
		if r.Start.Before(first) {
			first = r.Start
		}
		if e := r.Start.Add(time.Duration(r.Wall * float64(time.Second))); e.After(end) {
			end = e
		}
	}
	all := end.Sub(first).Seconds()
	fmt.Fprintf(tw, "all tracks\t%s\t%s\t\t\t\t\t\n", fmtSeconds(all), before("all", all))
	tw.Flush()

	var pkgs, tests []row
	for _, r := range recs {
		for _, p := range r.Packages {
			if p.Action != "skip" || p.Elapsed > 0 {
				pkgs = append(pkgs, row{r.Track, p})
			}
		}
		for _, t := range r.Tests {
			tests = append(tests, row{r.Track, t})
		}
	}
	sortRows(pkgs)
	sortRows(tests)
	fmt.Fprintln(w, "\npackages (each test binary's run, within its track)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "time\tlast\ttrack\tpackage\t")
	for _, p := range pkgs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%s\t\n", fmtSeconds(p.Elapsed), before("package "+p.track+" "+p.Package, p.Elapsed), p.track, p.Package, mark(p.Action))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nthe %d slowest tests\n", slowest)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "time\tlast\ttrack\ttest\t")
	for _, t := range tests[:min(slowest, len(tests))] {
		key := "test " + t.track + " " + t.Package + "." + t.Test
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s %s%s\t\n", fmtSeconds(t.Elapsed), before(key, t.Elapsed), t.track, t.Package, t.Test, mark(t.Action))
	}
	tw.Flush()
	// Keep every test's time, not only the slowest: a test that climbs
	// into the list next time shows how long it took before.
	for _, t := range tests[min(slowest, len(tests)):] {
		now["test "+t.track+" "+t.Package+"."+t.Test] = t.Elapsed
	}
	if b, err := json.Marshal(now); err == nil {
		_ = os.WriteFile(lastPath, b, 0o644)
	}
	if len(failedTracks) > 0 {
		fmt.Fprintf(w, "\nfailed tracks: %s\n", strings.Join(failedTracks, ", "))
	}
	// The closing line CI reads, and a person too.
	fmt.Fprintf(w, "\ntests: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	return code, nil
}

type row struct {
	track string
	Timing
}

// sortRows puts the longest first (then by name, for a stable table).
func sortRows(rs []row) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Elapsed != rs[j].Elapsed {
			return rs[i].Elapsed > rs[j].Elapsed
		}
		return rs[i].Package+rs[i].Test+rs[i].track < rs[j].Package+rs[j].Test+rs[j].track
	})
}

func mark(action string) string {
	if action == "fail" {
		return " FAIL"
	}
	return ""
}

// readRecords reads every track record in dir, in order of start.
func readRecords(dir string) ([]Record, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var recs []Record
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].Start.Before(recs[j].Start) })
	return recs, nil
}
