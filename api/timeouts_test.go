package api_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"pbem/api"
	"pbem/engine/lords"
)

// serveWith serves h on loopback with the timeouts and returns its address.
func serveWith(t *testing.T, h http.Handler, to api.Timeouts) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := api.NewHTTPServer(h, to)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String()
}

var shortTimeouts = api.Timeouts{ReadHeader: time.Second, Read: time.Second, Write: time.Second, Idle: time.Second}

// closedWithin reads conn until the server ends it and reports how long
// that took (or fails after limit).
func closedWithin(t *testing.T, conn net.Conn, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	_ = conn.SetReadDeadline(start.Add(limit))
	_, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server still held the connection after %v", limit)
	}
	return time.Since(start)
}

// TestSlowBodyIsCut sends a request body one byte every 200 ms: the
// server lets the connection go after its read timeout instead of waiting
// for the body for ever.
func TestSlowBodyIsCut(t *testing.T) {
	e := newEnv(t)
	addr := serveWith(t, e.srv, shortTimeouts)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /api/v1/games HTTP/1.1\r\nHost: pbem\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	go func() {
		for range 50 {
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	if d := closedWithin(t, conn, 6*time.Second); d > 4*time.Second {
		t.Fatalf("connection ended after %v", d)
	}
}

// TestIdleConnectionIsClosed keeps a connection open after one request:
// the server closes it after its idle timeout.
func TestIdleConnectionIsClosed(t *testing.T) {
	e := newEnv(t)
	addr := serveWith(t, e.srv, shortTimeouts)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /healthz HTTP/1.1\r\nHost: pbem\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}
	start := time.Now()
	_ = conn.SetReadDeadline(start.Add(6 * time.Second))
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Fatalf("the server kept the idle connection: %v", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Fatalf("idle connection closed after %v", d)
	}
}

// TestLiveStreamOutlivesTheTimeouts reads the live-update stream for
// three times the server's read and write timeouts: it keeps going.
func TestLiveStreamOutlivesTheTimeouts(t *testing.T) {
	e := newPageEnvWith(t, func(pc *api.PageConfig) { pc.Poll = 200 * time.Millisecond })
	id := e.createGame(lords.Name, 2, "en", "")
	addr := serveWith(t, e.srv, shortTimeouts)
	req, err := http.NewRequest("GET", "http://"+addr+"/play/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: "pbem_seat", Value: seatToken(id, 0)})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %d", resp.StatusCode)
	}
	start := time.Now()
	sc := bufio.NewScanner(resp.Body)
	lines := 0
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), ": keep-alive") || strings.HasPrefix(sc.Text(), "event:") {
			lines++
		}
		if time.Since(start) > 3*time.Second {
			break
		}
	}
	if time.Since(start) < 3*time.Second || lines < 5 {
		t.Fatalf("the stream ended after %v (%d events and keep-alives): %v", time.Since(start), lines, sc.Err())
	}
}
