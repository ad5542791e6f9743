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
	for _, want := range []string{"plain INSERT:", "moves:", "POST /moves:    p50", "memory:         40 active games"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("loadtest output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestLoadViewDecode reads the fields a load client needs from a view (up
// to its state, which is left unread) and from a summary (whole).
func TestLoadViewDecode(t *testing.T) {
	var v loadView
	view := `{"game_id":"g","seat":2,"version":7,"status":"active","to_move":[2,3],"legal_moves":[{"type":"a"},{"type":"b"}],"state":{"x":[1,2,3]},"deadline":null}`
	if err := v.decode([]byte(view)); err != nil {
		t.Fatal(err)
	}
	if v.Seat != 2 || v.Version != 7 || v.Status != "active" || len(v.ToMove) != 2 || v.ToMove[1] != 3 ||
		len(v.LegalMoves) != 2 || string(v.LegalMoves[1]) != `{"type":"b"}` {
		t.Fatalf("view decoded as %+v", v)
	}
	s := loadView{Seat: -1}
	summary := `{"id":"g","game":"lords","status":"finished","version":9,"to_move":[],"seats":[{"seat":0,"name":"Ann"}],"deadline":null}`
	if err := s.decode([]byte(summary)); err != nil {
		t.Fatal(err)
	}
	if s.Seat != -1 || s.Version != 9 || s.Status != "finished" || len(s.ToMove) != 0 || s.LegalMoves != nil {
		t.Fatalf("summary decoded as %+v", s)
	}
	if err := s.decode([]byte(`[1]`)); err == nil {
		t.Fatal("an array decoded as a view")
	}
}
