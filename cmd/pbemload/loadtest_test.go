package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"pbem/events/postgres/pgtest"
)

// peersLines are the lines the peers harness (peers/pbem-load.js) reads
// from the report, as it matches them: scripts written for `pbem loadtest`
// rely on their form.
var peersLines = []*regexp.Regexp{
	regexp.MustCompile(`(?m)^plain INSERT:\s+(\d+) rows/s`),
	regexp.MustCompile(`(?m)^moves:\s+(\d+) moves/s \((\d+) moves, (\d+) games, (\d+) conflicts\)`),
	regexp.MustCompile(`(?m)^POST /moves:\s+p50 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms`),
	regexp.MustCompile(`(?m)^CPU per move:\s+this process \(server and clients\) ([\d.]+) ms, PostgreSQL ([\d.]+) ms`),
}

// TestLoadtestRuns runs a short load test, called as the peers harness
// calls it (with the former subcommand's name first): it prints the lines
// scripts read, and the memory line, which counts the games created before
// the play.
func TestLoadtestRuns(t *testing.T) {
	env := map[string]string{"DATABASE_URL": pgtest.AdminURL(), "PBEM_DATA": t.TempDir()}
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"loadtest", "-players", "4", "-duration", "1s", "-baseline", "200ms", "-games", "40"},
		func(k string) string { return env[k] }, &out, &errOut)
	if code != 0 {
		t.Fatalf("pbemload: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	for _, re := range append(peersLines, regexp.MustCompile(`(?m)^memory: +\d+ active games \(40 created in .*heap in use`)) {
		if !re.Match(out.Bytes()) {
			t.Fatalf("the report lacks %s:\n%s", re, out.String())
		}
	}
}

// TestCommandLine checks the exit codes of help and of mistakes, which are
// caught before any database is opened.
func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-h"}, 0, "-players"},
		{[]string{"-nosuchflag"}, 2, "flag provided but not defined"},
		{[]string{"extra"}, 2, "unexpected arguments"},
		{[]string{"-game", "chess"}, 1, `unknown game "chess"`},
		{[]string{"loadtest", "-players", "0"}, 1, "must be positive"},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), c.args, func(string) string { return "" }, &out, &errOut)
		if code != c.code || !bytes.Contains(errOut.Bytes(), []byte(c.want)) {
			t.Errorf("pbemload %v: exit %d, stderr %q; want %d and %q", c.args, code, errOut.String(), c.code, c.want)
		}
	}
}
