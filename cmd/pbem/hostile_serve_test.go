package main

// The hostile-input suite of the serve and migrate commands (issue #29):
// what a careless operator may do, run as real processes.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/migrations"
)

// testServeSecret is a PBEM_SECRET serve accepts, for the tests that run it.
const testServeSecret = "pbem1-60c6a58d447b39cdcc09a4207bd59c766ace7426fe0b6e8a706140c9055246e7-bc6319b1"

// TestServeRefusesAWeakSecret: `pbem serve` with PBEM_SECRET=hunter2, 32
// bytes of one letter, a sequence, or words and a date does not start; it
// says how to make a secret (`pbem secret`).
func TestServeRefusesAWeakSecret(t *testing.T) {
	t.Parallel()
	for _, secret := range []string{"hunter2", strings.Repeat("s", 32), "abcdefghijklmnopqrstuvwxyz012345", "pbem-production-secret-2026-12-01"} {
		cmd := pbemCmd(t, []string{"PBEM_SECRET=" + secret, "PBEM_DATA=" + t.TempDir(), "DATABASE_URL=postgres://127.0.0.1:1/none"},
			"serve", "-listen", "127.0.0.1:0")
		done := make(chan struct{})
		var out []byte
		var err error
		go func() { out, err = cmd.CombinedOutput(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("serve with PBEM_SECRET=%q did not exit", secret)
		}
		if err == nil || !strings.Contains(string(out), "pbem secret") || strings.Contains(string(out), "listening") {
			t.Errorf("serve with PBEM_SECRET=%q: %v\n%s", secret, err, out)
		}
	}
}

// get answers a GET of u: its status and body.
func getStatus(t *testing.T, u, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestMigrateDownUnderARunningServer: `pbem migrate down` refuses while a
// server is connected to the database, naming it. A schema reverted under
// the server anyway (by hand, another tool) makes it answer 503, never
// 500; once migrated up again it answers correctly: the vanished game is
// unknown (no stale cached row), and a new game plays.
func TestMigrateDownUnderARunningServer(t *testing.T) {
	t.Parallel()
	url := pgtest.NewEmptyDB(t)
	srv := startServe(t, []string{"DATABASE_URL=" + url, "PBEM_DATA=" + t.TempDir(), "PBEM_SMTP_URL=", "PBEM_SECRET=" + testServeSecret})
	newGame := func() (id, seat0 string) {
		var created struct {
			ID string `json:"id"`
		}
		call(t, http.MethodPost, srv.base+"/api/v1/games", "", "", `{"game":"lords-of-scotland","language":"en",
			"organiser":{"name":"Ann","email":"ann@example.org"},
			"players":[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}]}`, http.StatusAccepted, &created)
		call(t, http.MethodPost, srv.base+"/api/v1/confirm/"+tokens.Confirm([]byte(testServeSecret), created.ID), "", "", "",
			http.StatusCreated, nil)
		return created.ID, tokens.Seat([]byte(testServeSecret), created.ID, 0, 0)
	}
	id, tok := newGame()
	if code, body := getStatus(t, srv.base+"/api/v1/games/"+id+"/view", tok); code != http.StatusOK {
		t.Fatalf("view: %d %s", code, body)
	}
	// A legal move of the seat to move, kept for after the migration.
	var move struct{ token, body string }
	for seat := range 2 {
		st := tokens.Seat([]byte(testServeSecret), id, seat, 0)
		var v struct {
			Version    int64             `json:"version"`
			LegalMoves []json.RawMessage `json:"legal_moves"`
		}
		call(t, http.MethodGet, srv.base+"/api/v1/games/"+id+"/view", st, "", "", http.StatusOK, &v)
		if len(v.LegalMoves) > 0 {
			b, _ := json.Marshal(map[string]any{"version": v.Version, "move": v.LegalMoves[0]})
			move.token, move.body = st, string(b)
		}
	}
	if move.token == "" {
		t.Fatal("no seat has a legal move")
	}

	env := map[string]string{"DATABASE_URL": url, "PBEM_DATA": t.TempDir()}
	var out bytes.Buffer
	code := run(context.Background(), []string{"migrate", "down", "--all"}, func(k string) string { return env[k] }, &out, &out)
	if code == 0 || !strings.Contains(out.String(), "stop them first") {
		t.Fatalf("migrate down --all under a running server: exit %d\n%s", code, out.String())
	}
	if code, body := getStatus(t, srv.base+"/api/v1/games/"+id+"/view", tok); code != http.StatusOK {
		t.Fatalf("view after the refused migrate down: %d %s", code, body)
	}

	// Reverted anyway, behind pbem's back.
	if err := migrations.Down(url); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/v1/games/" + id + "/view", "/api/v1/games/" + id, "/play/" + id + "?token=" + tok} {
		code, body := getStatus(t, srv.base+path, tok)
		if code != http.StatusServiceUnavailable {
			t.Errorf("GET %s with the schema reverted: %d %.200s, want 503", path, code, body)
		}
	}
	if err := migrations.Up(url); err != nil {
		t.Fatal(err)
	}
	// Back: once the server has seen the schema whole again, the old game
	// is gone from its answers as from the database.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(srv.stderr.String(), "caches emptied") {
		if time.Now().After(deadline) {
			t.Fatalf("the server did not see the schema come back\n%s", srv.stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for {
		code, body := getStatus(t, srv.base+"/api/v1/games/"+id+"/view", tok)
		if code == http.StatusNotFound {
			break
		}
		if code != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("view of the vanished game after migrate up: %d %.300s, want 404", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.base+"/api/v1/games/"+id+"/moves", strings.NewReader(move.body))
	req.Header.Set("Authorization", "Bearer "+move.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a move kept from before, in the vanished game: %d, want 404", resp.StatusCode)
	}
	id2, tok2 := newGame()
	if code, body := getStatus(t, srv.base+"/api/v1/games/"+id2+"/view", tok2); code != http.StatusOK {
		t.Fatalf("a new game's view after migrate up: %d %s", code, body)
	}
	if strings.Contains(srv.stderr.String(), "request failed") {
		t.Errorf("the server logged failed requests (500s):\n%s", srv.stderr.String())
	}
}
