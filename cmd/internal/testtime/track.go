package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Record is what a track leaves in DIR/NAME.json.
type Record struct {
	Track    string    `json:"track"`
	Command  string    `json:"command"`
	Start    time.Time `json:"start"`
	Wall     float64   `json:"wall_s"`
	LoadFrom float64   `json:"load_start"` // 1-minute load average
	LoadTo   float64   `json:"load_end"`
	ExitCode int       `json:"exit_code"`
	Packages []Timing  `json:"packages"`
	Tests    []Timing  `json:"tests"`  // top-level tests only
	Passed   int       `json:"passed"` // tests and subtests
	Failed   int       `json:"failed"`
	Skipped  int       `json:"skipped"`
}

// Timing is one package's or test's time and outcome.
type Timing struct {
	Package string  `json:"package"`
	Test    string  `json:"test,omitempty"`
	Elapsed float64 `json:"elapsed_s"`
	Action  string  `json:"action"` // pass, fail or skip
}

// runTrack runs argv, a go test -json, prints its events as plain go test
// would, records the track in dir, and returns argv's exit code.
func runTrack(track, dir string, argv []string, stdout, stderr io.Writer) (int, error) {
	rec := Record{Track: track, Command: strings.Join(argv, " "), Start: time.Now(), LoadFrom: loadAverage()}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stderr = os.Stdin, stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 1, err
	}
	if err := cmd.Start(); err != nil {
		return 1, err
	}
	p := newPrinter(stdout)
	readErr := p.read(out)
	err = cmd.Wait()
	rec.Wall = time.Since(rec.Start).Seconds()
	rec.LoadTo = loadAverage()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		rec.ExitCode = ee.ExitCode()
	case err != nil:
		return 1, err
	}
	if readErr != nil {
		return 1, readErr
	}
	p.fill(&rec)
	if rec.ExitCode == 0 && rec.Failed > 0 {
		// go test said nothing failed, its events did: believe the failure.
		rec.ExitCode = 1
	}
	if err := writeRecord(dir, rec); err != nil {
		return 1, err
	}
	return rec.ExitCode, nil
}

func writeRecord(dir string, rec Record) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, rec.Track+".json"), b, 0o644)
}

// loadAverage is the machine's 1-minute load average, 0 where unknown.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b) + " 0")[0], 64)
	return f
}

// fmtSeconds prints seconds as go test does ("12.3s").
func fmtSeconds(s float64) string { return fmt.Sprintf("%.1fs", s) }
