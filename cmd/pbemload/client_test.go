package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// TestClientKeepsAConnectionPerPlayer plays 10 rounds in which 16
// players each send a request at once, and expects about 16 connections in all:
// the transport keeps one per player while they are idle between
// requests. (Its default keeps two, and dials again for the others at
// every round.)
func TestClientKeepsAConnectionPerPlayer(t *testing.T) {
	t.Parallel()
	const players = 16
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(5 * time.Millisecond) // so that the round's requests overlap
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	lc, err := newLoadClient(srv.URL, nil, "g", 2, players)
	if err != nil {
		t.Fatal(err)
	}
	defer lc.close()
	for range 10 {
		err := lc.parallel(context.Background(), players, players, func(s *session, _ int) error {
			_, _, err := s.do("GET", "/", "", nil)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A few more are allowed: a request may dial while another's
	// connection comes back, when the machine is busy.
	if n := conns.Load(); n < 1 || n > players+players/4 {
		t.Fatalf("%d connections for %d players", n, players)
	}
}

// TestSessionSendsTheRequest checks what the server receives: method, path,
// bearer token, JSON content type and body; and what the caller gets back:
// the status and the whole body, whatever the status.
func TestSessionSendsTheRequest(t *testing.T) {
	t.Parallel()
	var got struct{ method, path, auth, ctype, body string }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.method, got.path, got.auth, got.ctype, got.body = r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), string(b)
		w.WriteHeader(http.StatusConflict)
		_, _ = io.WriteString(w, `{"error":{"code":"stale"}}`)
	}))
	defer srv.Close()
	lc, err := newLoadClient(srv.URL, nil, "g", 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer lc.close()
	s := &session{lc: lc, ctx: context.Background()}
	st, body, err := s.do("POST", "/api/v1/games/x/moves", "tok", []byte(`{"version":3}`))
	if err != nil {
		t.Fatal(err)
	}
	if st != http.StatusConflict || string(body) != `{"error":{"code":"stale"}}` {
		t.Fatalf("got %d %s", st, body)
	}
	if got.method != "POST" || got.path != "/api/v1/games/x/moves" || got.auth != "Bearer tok" ||
		got.ctype != "application/json" || got.body != `{"version":3}` {
		t.Fatalf("the server received %+v", got)
	}
	if _, _, err := s.do("GET", "/", "", nil); err != nil || got.auth != "" || got.ctype != "" || got.body != "" {
		t.Fatalf("a GET without token sent %+v (%v)", got, err)
	}
}
