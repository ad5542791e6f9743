package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/cmd/internal/wiring"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	ppg "pbem/projections/postgres"
)

// playMoves is how many moves the tests' plays make (-min-moves), and
// playTimeout how long a test may take to make them before it fails.
const (
	playMoves   = "40"
	playTimeout = 3 * time.Minute
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
// the play. The play lasts until the players have made playMoves moves
// (not a fixed time, in which a busy machine may make none), within
// playTimeout.
func TestLoadtestRuns(t *testing.T) {
	t.Parallel()
	env := map[string]string{"DATABASE_URL": pgtest.AdminURL(), "PBEM_DATA": t.TempDir()}
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), playTimeout)
	defer cancel()
	code := run(ctx, []string{"loadtest", "-players", "4", "-duration", "0s", "-min-moves", playMoves, "-baseline", "200ms", "-games", "40"},
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
	t.Parallel()
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

// TestLoadtestDrivesAServerApart: with -url, pbemload plays against a
// server it did not start (here an API the test serves, with its secret in
// PBEM_SECRET) and, with -pid (here the test's own process) and the
// server's DATABASE_URL, reports the server's CPU a move apart from its
// clients', the whole PostgreSQL cluster's, and their sum. The play lasts
// until playMoves moves are made.
func TestLoadtestDrivesAServerApart(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.NewDB(t)
	pool, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	games, err := wiring.Games()
	if err != nil {
		t.Fatal(err)
	}
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	secret := strings.Repeat("k7", 16)
	svc := play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: []byte(secret)})
	hs := httptest.NewServer(api.New(api.Config{Service: svc, Limits: noLimits}))
	t.Cleanup(hs.Close)

	env := map[string]string{"DATABASE_URL": dbURL, "PBEM_SECRET": secret}
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), playTimeout)
	defer cancel()
	code := run(ctx, []string{"-url", hs.URL, "-pid", strconv.Itoa(os.Getpid()), "-players", "2", "-duration", "0s", "-min-moves", playMoves, "-games", "4"},
		func(k string) string { return env[k] }, &out, &errOut)
	if code != 0 {
		t.Fatalf("pbemload -url: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	for _, re := range []*regexp.Regexp{
		peersLines[1], peersLines[2],
		regexp.MustCompile(`(?m)^CPU per move:\s+server ([\d.]+) ms, clients ([\d.]+) ms, PostgreSQL ([\d.]+) ms \(whole cluster ([\d.]+) ms\); server \+ whole cluster ([\d.]+) ms`),
	} {
		if !re.Match(out.Bytes()) {
			t.Fatalf("the report lacks %s:\n%s", re, out.String())
		}
	}
	if code := run(context.Background(), []string{"-url", hs.URL}, func(string) string { return "" }, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "PBEM_SECRET") {
		t.Fatalf("-url without PBEM_SECRET: exit %d, %s", code, errOut.String())
	}
}
