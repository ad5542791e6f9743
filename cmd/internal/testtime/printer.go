package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output
	Test       string
	Elapsed    float64
	Output     string
}

// printer turns go test -json events back into what a plain go test
// prints: package lines as they come, a test's output only when it fails.
type printer struct {
	w        io.Writer
	held     map[string]map[string][]string // package, test: output not yet printed
	failures map[string]int                 // package: its tests that failed
	packages []Timing
	tests    []Timing
	passed   int
	failed   int
	skipped  int
}

func newPrinter(w io.Writer) *printer {
	return &printer{w: w, held: map[string]map[string][]string{}, failures: map[string]int{}}
}

// read consumes the event stream until it ends. A line that is no JSON
// event (go test printing past -json) is printed as it is.
func (p *printer) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(p.w, sc.Text())
			continue
		}
		p.handle(e)
	}
	// What was held for tests that never ended (a killed binary) shows.
	for pkg := range p.held {
		p.flush(pkg)
	}
	return sc.Err()
}

func (p *printer) handle(e event) {
	switch {
	case e.Action == "build-output":
		fmt.Fprint(p.w, e.Output)
	case e.Action == "output" && e.Test == "":
		if strings.HasPrefix(e.Output, "FAIL") {
			// A test that never ended (a panic, a timeout): its output
			// before the package's verdict, as go test prints it.
			p.flush(e.Package)
		}
		// go test prints no PASS line for a package that passes; -json does.
		if e.Output != "PASS\n" {
			fmt.Fprint(p.w, e.Output)
		}
	case e.Action == "output":
		tests := p.held[e.Package]
		if tests == nil {
			tests = map[string][]string{}
			p.held[e.Package] = tests
		}
		tests[e.Test] = append(tests[e.Test], e.Output)
	case e.Test != "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		p.endTest(e)
	case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		if e.Action == "fail" {
			p.flush(e.Package)
			if p.failures[e.Package] == 0 {
				// A package that failed with no test failing (a build
				// error, a binary killed or timed out between tests)
				// counts as one failure.
				p.failed++
			}
		}
		delete(p.held, e.Package)
		p.packages = append(p.packages, Timing{Package: e.Package, Elapsed: e.Elapsed, Action: e.Action})
	}
}

func (p *printer) endTest(e event) {
	switch e.Action {
	case "pass":
		p.passed++
	case "fail":
		p.failed++
		p.failures[e.Package]++
		p.print(p.held[e.Package][e.Test])
	case "skip":
		p.skipped++
	}
	delete(p.held[e.Package], e.Test)
	if !strings.Contains(e.Test, "/") {
		p.tests = append(p.tests, Timing{Package: e.Package, Test: e.Test, Elapsed: e.Elapsed, Action: e.Action})
	}
}

// flush prints what is held for every unfinished test of pkg.
func (p *printer) flush(pkg string) {
	for test, out := range p.held[pkg] {
		p.print(out)
		delete(p.held[pkg], test)
	}
}

// print writes a test's output without test2json's framing lines
// (=== RUN, === PAUSE, === CONT, === NAME), which plain go test omits.
func (p *printer) print(out []string) {
	for _, s := range out {
		if !strings.HasPrefix(s, "=== ") {
			fmt.Fprint(p.w, s)
		}
	}
}

// fill copies the timings and counts into rec.
func (p *printer) fill(rec *Record) {
	rec.Packages, rec.Tests = p.packages, p.tests
	rec.Passed, rec.Failed, rec.Skipped = p.passed, p.failed, p.skipped
}
