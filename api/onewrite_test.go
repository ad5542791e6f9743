package api

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// recordingListener records the size of every Write on its connections.
type recordingListener struct {
	net.Listener
	mu     sync.Mutex
	writes []int
}

func (l *recordingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &recordingConn{Conn: c, l: l}, nil
}

func (l *recordingListener) taken() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.writes
	l.writes = nil
	return w
}

type recordingConn struct {
	net.Conn
	l *recordingListener
}

func (c *recordingConn) Write(p []byte) (int, error) {
	c.l.mu.Lock()
	c.l.writes = append(c.l.writes, len(p))
	c.l.mu.Unlock()
	return c.Conn.Write(p)
}

// serveSizes serves GET /N: N bytes of JSON with their Content-Length (as
// jsonBlob answers a view), through wrap(ln), and returns the base URL and
// the recording listener under it.
func serveSizes(t *testing.T, wrap func(net.Listener) net.Listener) (string, *recordingListener) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordingListener{Listener: ln}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(n))
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(bytes.Repeat([]byte{'7'}, n))
		}
	})}
	go func() { _ = srv.Serve(wrap(rec)) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String(), rec
}

// get asks for path on one keep-alive connection and checks the body's length.
func get(t *testing.T, cl *http.Client, method, url string, n int) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	resp, err := cl.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := n
	if method == http.MethodHead {
		want = 0
	}
	if len(body) != want || resp.ContentLength != int64(n) {
		t.Fatalf("%s %s: %d bytes, Content-Length %d; want %d and %d", method, url, len(body), resp.ContentLength, want, n)
	}
}

// TestOneWriteSendsAViewInOneWrite: a 6.7 KB answer leaves net/http in two
// writes (its 4 KiB buffer, then the rest); through OneWrite in one, whole.
// Short answers, an answer that fills the buffer exactly, a HEAD answer and
// a large one pass whole on the same keep-alive connection.
func TestOneWriteSendsAViewInOneWrite(t *testing.T) {
	plainURL, plain := serveSizes(t, func(ln net.Listener) net.Listener { return ln })
	oneURL, one := serveSizes(t, OneWrite)
	cl := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer cl.CloseIdleConnections()

	get(t, cl, http.MethodGet, plainURL+"/6700", 6700)
	if w := plain.taken(); len(w) != 2 || w[0] != connBufferSize {
		t.Fatalf("net/http alone wrote a 6.7 KB answer in %v; this test expects %d bytes then the rest", w, connBufferSize)
	}
	get(t, cl, http.MethodGet, oneURL+"/6700", 6700)
	w := one.taken()
	if len(w) != 1 || w[0] <= 6700 {
		t.Fatalf("through OneWrite a 6.7 KB answer took writes %v, want one of header and body", w)
	}
	head := w[0] - 6700

	for _, n := range []int{0, 100, connBufferSize - head, connBufferSize - head + 1, 200 << 10} {
		get(t, cl, http.MethodGet, oneURL+"/"+strconv.Itoa(n), n)
		got := one.taken()
		sum := 0
		for _, k := range got {
			sum += k
		}
		if sum < n+head-8 { // the header's length varies with n's digits
			t.Fatalf("answer of %d bytes: writes %v carry %d bytes", n, got, sum)
		}
		if n <= 60<<10 && len(got) != 1 {
			t.Errorf("answer of %d bytes took writes %v, want one", n, got)
		}
	}
	get(t, cl, http.MethodHead, oneURL+"/6700", 6700)
	if w := one.taken(); len(w) != 1 || w[0] >= 6700 {
		t.Fatalf("HEAD: writes %v, want the header alone", w)
	}
}

// TestPromisesMore: only a response's first buffer, header whole, body
// started and longer than the buffer, is held.
func TestPromisesMore(t *testing.T) {
	resp := func(cl int, body int) []byte {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		w.WriteString("HTTP/1.1 200 OK\r\nContent-Length: " + strconv.Itoa(cl) + "\r\nContent-Type: application/json\r\n\r\n")
		w.Write(bytes.Repeat([]byte{'x'}, body))
		w.Flush()
		return b.Bytes()
	}
	for _, c := range []struct {
		name string
		p    []byte
		want bool
	}{
		{"body goes on", resp(9000, 100), true},
		{"body ends in the buffer", resp(100, 100), false},
		{"header alone (HEAD)", resp(9000, 0), false},
		{"chunked", []byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1000\r\nxx"), false},
		{"header cut", []byte("HTTP/1.1 200 OK\r\nContent-Length: 9000\r\n"), false},
		{"not a response start", append([]byte("xxxx"), resp(9000, 100)...), false},
		{"bad length", []byte("HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\nab"), false},
	} {
		if got := promisesMore(c.p); got != c.want {
			t.Errorf("%s: promisesMore = %v, want %v", c.name, got, c.want)
		}
	}
}
