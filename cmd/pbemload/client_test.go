package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestClientKeepsAConnectionPerPlayer sends many requests from 16
// goroutines, and expects at most 16 connections: the transport keeps one
// per player between requests (its default would keep two and dial again
// for the others).
func TestClientKeepsAConnectionPerPlayer(t *testing.T) {
	const players = 16
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	err = lc.parallel(context.Background(), players, 100*players, func(s *session, _ int) error {
		_, _, err := s.do("GET", "/", "", nil)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := conns.Load(); n < 1 || n > players {
		t.Fatalf("%d connections for %d players", n, players)
	}
}

// TestSessionSendsTheRequest checks what the server receives: method, path,
// bearer token, JSON content type and body; and what the caller gets back:
// the status and the whole body, whatever the status.
func TestSessionSendsTheRequest(t *testing.T) {
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
