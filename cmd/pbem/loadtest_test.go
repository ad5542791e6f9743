package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"pbem/events/postgres/pgtest"
)

// TestLoadtestRuns runs a short loadtest: it reports the plain INSERT rate,
// moves/s with latencies, and the memory line, and drops its scratch database.
func TestLoadtestRuns(t *testing.T) {
	env := map[string]string{"DATABASE_URL": pgtest.NewDB(t), "PBEM_DATA": t.TempDir()}
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"loadtest", "-players", "4", "-duration", "1s", "-baseline", "200ms", "-games", "40"},
		func(k string) string { return env[k] }, &out, &errOut)
	if code != 0 {
		t.Fatalf("loadtest: %d\n%s%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"plain INSERT:", "moves:", "POST /moves:    p50", "active games (40 created in"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("loadtest output lacks %q:\n%s", want, out.String())
		}
	}
}
