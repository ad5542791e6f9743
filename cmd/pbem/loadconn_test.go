package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// newCountingServer starts an httptest server on h and counts the
// connections it accepts.
func newCountingServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	s := httptest.NewUnstartedServer(h)
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s, &conns
}

func hostOf(s *httptest.Server) string { return strings.TrimPrefix(s.URL, "http://") }

// TestLoadConnSendsTheRequest checks the request line, the headers that
// matter and the body as the server reads them, and a fixed-length answer.
func TestLoadConnSendsTheRequest(t *testing.T) {
	s, _ := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got := fmt.Sprintf("%s %s host=%s auth=%q type=%q len=%d body=%s", r.Method, r.URL.Path, r.Host,
			r.Header.Get("Authorization"), r.Header.Get("Content-Type"), r.ContentLength, body)
		w.Header().Set("Content-Length", fmt.Sprint(len(got)))
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, got)
	})
	c := newLoadConn(hostOf(s))
	defer c.Close()
	st, body, err := c.do("POST", "/api/v1/games/x/moves", "tok-1", []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`POST /api/v1/games/x/moves host=%s auth="Bearer tok-1" type="application/json" len=7 body={"a":1}`, hostOf(s))
	if st != http.StatusCreated || string(body) != want {
		t.Fatalf("got %d %s\nwant 201 %s", st, body, want)
	}
	st, body, err = c.do("GET", "/v", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want = fmt.Sprintf(`GET /v host=%s auth="" type="" len=0 body=`, hostOf(s))
	if st != http.StatusCreated || string(body) != want {
		t.Fatalf("got %d %s\nwant 201 %s", st, body, want)
	}
}

// TestLoadConnKeepsAlive sends many requests over one connection, their
// answers from 2 kB (sent with a Content-Length) to 12 kB (sent chunked,
// as net/http sends what a handler writes beyond its 2 kB buffer).
func TestLoadConnKeepsAlive(t *testing.T) {
	s, conns := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte{r.URL.Path[1]}, len(r.URL.Path)*1000))
	})
	c := newLoadConn(hostOf(s))
	defer c.Close()
	for i := range 300 {
		path := "/" + strings.Repeat(string(rune('a'+i%26)), 1+i%12)
		st, body, err := c.do("GET", path, "", nil)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if st != 200 || len(body) != len(path)*1000 || bytes.Count(body, []byte{path[1]}) != len(body) {
			t.Fatalf("request %d: %d, %d bytes", i, st, len(body))
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for 300 requests, want 1", n)
	}
}

// TestLoadConnChunked reads a body written in several flushed pieces
// (each a chunk).
func TestLoadConnChunked(t *testing.T) {
	s, _ := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		for i := range 5 {
			fmt.Fprintf(w, "piece %d;", i)
			w.(http.Flusher).Flush()
		}
	})
	c := newLoadConn(hostOf(s))
	defer c.Close()
	for range 3 {
		st, body, err := c.do("GET", "/", "", nil)
		if err != nil || st != 200 || string(body) != "piece 0;piece 1;piece 2;piece 3;piece 4;" {
			t.Fatalf("got %d %q %v", st, body, err)
		}
	}
}

// TestLoadConnRedials: a server that closes the connection after its
// answer (Connection: close), or while it is idle, is dialled again.
func TestLoadConnRedials(t *testing.T) {
	s, conns := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/close" {
			w.Header().Set("Connection", "close")
		}
		io.WriteString(w, r.URL.Path)
	})
	c := newLoadConn(hostOf(s))
	defer c.Close()
	get := func(path string) {
		t.Helper()
		st, body, err := c.do("GET", path, "", nil)
		if err != nil || st != 200 || string(body) != path {
			t.Fatalf("GET %s: %d %q %v", path, st, body, err)
		}
	}
	get("/close")
	get("/close")
	get("/a")
	if n := conns.Load(); n != 3 {
		t.Fatalf("%d connections, want 3", n)
	}
	s.CloseClientConnections() // the idle connection of "/a"
	get("/b")
	get("/c")
	if n := conns.Load(); n != 4 {
		t.Fatalf("%d connections, want 4", n)
	}
}

// TestLoadConnErrorStatuses returns error statuses and their bodies, and
// keeps the connection.
func TestLoadConnErrorStatuses(t *testing.T) {
	s, conns := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/404":
			http.Error(w, "no such game", http.StatusNotFound)
		case "/409":
			w.WriteHeader(http.StatusConflict)
			w.Write(bytes.Repeat([]byte("x"), 5000))
		case "/204":
			w.WriteHeader(http.StatusNoContent)
		default:
			http.Error(w, "boom", http.StatusInternalServerError)
		}
	})
	c := newLoadConn(hostOf(s))
	defer c.Close()
	for _, tc := range []struct {
		path string
		st   int
		body string
	}{
		{"/404", 404, "no such game\n"},
		{"/409", 409, strings.Repeat("x", 5000)},
		{"/204", 204, ""},
		{"/500", 500, "boom\n"},
		{"/404", 404, "no such game\n"},
	} {
		st, body, err := c.do("GET", tc.path, "", nil)
		if err != nil || st != tc.st || string(body) != tc.body {
			t.Fatalf("GET %s: %d %.30q %v, want %d %.30q", tc.path, st, body, err, tc.st, tc.body)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections, want 1", n)
	}
}

// rawServer answers each request with the bytes of respond(i) (i: the
// request's number, counted over all connections), then closes the
// connection if close.
func rawServer(t *testing.T, close bool, respond func(i int) string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				rd := bufio.NewReader(conn)
				for {
					req, err := http.ReadRequest(rd)
					if err != nil {
						return
					}
					io.Copy(io.Discard, req.Body)
					io.WriteString(conn, respond(int(n.Add(1)-1)))
					if close {
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// TestLoadConnWireForms reads answers that net/http does not send but a
// server may: chunk extensions and trailers, upper-case hexadecimal, a body
// up to the end of the connection, HTTP/1.0.
func TestLoadConnWireForms(t *testing.T) {
	for _, tc := range []struct {
		name, resp, body string
		close            bool
	}{
		{"chunked with extensions and trailers", "HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n" +
			"3;x=y\r\nabc\r\nA \r\n0123456789\r\n0\r\nX-Sum: 13\r\n\r\n", "abc0123456789", false},
		{"chunked beside a Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"2\r\nhi\r\n0\r\n\r\n", "hi", false},
		{"bare line feeds", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", "ok", false},
		{"no reason phrase", "HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok", "ok", false},
		{"body to the end", "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + strings.Repeat("z", 70000), strings.Repeat("z", 70000), true},
		{"HTTP/1.0", "HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nold", "old", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := rawServer(t, tc.close, func(int) string { return tc.resp })
			c := newLoadConn(addr)
			defer c.Close()
			for range 3 {
				st, body, err := c.do("GET", "/", "", nil)
				if err != nil || st != 200 || string(body) != tc.body {
					t.Fatalf("got %d %.40q %v, want 200 %.40q", st, body, err, tc.body)
				}
			}
		})
	}
}

// TestLoadConnMalformed gives a clear error for each malformed answer.
func TestLoadConnMalformed(t *testing.T) {
	for _, tc := range []struct{ name, resp, want string }{
		{"no answer", "", "connection closed before any response"},
		{"not HTTP", "SSH-2.0-OpenSSH\r\n\r\n", "malformed response: status line"},
		{"HTTP/2", "HTTP/2.0 200 OK\r\n\r\n", "malformed response: status line"},
		{"status of letters", "HTTP/1.1 2x0 OK\r\n\r\n", "malformed response: status line"},
		{"informational", "HTTP/1.1 100 Continue\r\n\r\n", "unexpected informational response 100"},
		{"header without colon", "HTTP/1.1 200 OK\r\nContent-Length 3\r\n\r\nabc", "malformed response: header line"},
		{"folded header", "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", "folded header line"},
		{"bad Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\nabc", `Content-Length "-3"`},
		{"two Content-Lengths", "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", "two Content-Lengths"},
		{"huge Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n", "too large"},
		{"gzip", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", "unsupported response: Transfer-Encoding"},
		{"truncated body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "truncated response: connection closed after 3 of 10 body bytes"},
		{"truncated headers", "HTTP/1.1 200 OK\r\nContent-Len", "truncated response: connection closed in the header"},
		{"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", `chunk size "zz"`},
		{"chunk longer than its size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", "chunk longer than its size"},
		{"no last chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n", "connection closed in the chunk size"},
		{"header line too long", "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", loadLineMax) + "\r\n\r\n", "header longer than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := rawServer(t, true, func(int) string { return tc.resp })
			c := newLoadConn(addr)
			defer c.Close()
			st, body, err := c.do("GET", "/x", "", nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %d %.40q %v, want an error with %q", st, body, err, tc.want)
			}
			if !strings.Contains(err.Error(), "GET /x") {
				t.Fatalf("error %q does not name the request", err)
			}
		})
	}
}

// TestLoadConnRetriesOnce: a reused connection that gives no answer is
// tried again once, on a new one; a new connection is not.
func TestLoadConnRetriesOnce(t *testing.T) {
	// Answers the first request (and closes the connection unannounced),
	// then closes every connection unanswered.
	addr := rawServer(t, true, func(i int) string {
		if i == 0 {
			return "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
		}
		return ""
	})
	c := newLoadConn(addr)
	defer c.Close()
	if st, _, err := c.do("GET", "/", "", nil); err != nil || st != 200 {
		t.Fatalf("first request: %d %v", st, err)
	}
	_, _, err := c.do("GET", "/", "", nil)
	if err == nil || !strings.Contains(err.Error(), "connection closed before any response") {
		t.Fatalf("got %v, want no response", err)
	}
}

// TestLoadConnRefusesBadRequests: what would break the request's framing
// is refused before anything is sent.
func TestLoadConnRefusesBadRequests(t *testing.T) {
	c := newLoadConn("127.0.0.1:1")
	for _, tc := range []struct{ method, path, token string }{
		{"GET", "no-slash", ""},
		{"GET", "/a b", ""},
		{"GET", "/a\r\nX: y", ""},
		{"", "/", ""},
		{"GET", "/", "tok\r\nX: y"},
	} {
		if _, _, err := c.do(tc.method, tc.path, tc.token, nil); err == nil || !strings.Contains(err.Error(), "bad") {
			t.Errorf("%q %q %q: %v, want a refusal", tc.method, tc.path, tc.token, err)
		}
	}
	if _, _, err := c.do("GET", "/", "", nil); err == nil || !strings.Contains(err.Error(), "connect") {
		t.Errorf("dial of a closed port: %v", err)
	}
}
