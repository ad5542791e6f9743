package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"syscall"
)

// loadConn is the load test's HTTP/1.1 client: one keep-alive connection
// to one server, one request at a time, and nothing else. A load generator
// shares the machine with the server it measures, so it must cost little:
// no goroutine of its own, no header maps, each request written with one
// Write from a reused buffer, each response read into a reused buffer.
//
// It speaks the subset of HTTP/1.1 an API answers with: a body of fixed
// Content-Length, chunked, or up to the end of the connection. Anything
// else is an error, as is any malformed response.
type loadConn struct {
	addr   string // host:port dialled, and the Host header
	conn   net.Conn
	rd     *bufio.Reader
	reused bool   // conn has answered a request already
	req    []byte // the request being sent
	body   []byte // the last response's body
}

const (
	// loadMaxBody bounds a response body, so that a broken server gives an
	// error, not an exhausted memory.
	loadMaxBody = 64 << 20
	// loadLineMax is the longest status, header or chunk-size line read
	// (the bufio.Reader's size).
	loadLineMax = 16 << 10
)

// newLoadConn returns a client of the server at addr (host:port); it dials
// on its first request.
func newLoadConn(addr string) *loadConn {
	return &loadConn{addr: addr}
}

// Close closes the connection, if one is open. The client dials again on
// its next request.
func (c *loadConn) Close() error {
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn = nil
	return err
}

// errStale marks a reused connection that gave no answer at all: the server
// had closed it (after an idle time, say) before it read the request.
var errStale = errors.New("connection closed before any response")

// do sends a request and returns the response's status and body. A body
// (JSON) is sent with Content-Type application/json; token, when not
// empty, as Authorization: Bearer. The returned body is valid until the
// next call. Any status is returned as is: checking it is the caller's job.
//
// A reused connection that the server closed without answering is dialled
// again and the request sent once more. The server cannot have acted on it
// (it answers every request it reads), and a move sent twice would be
// refused as stale anyway.
func (c *loadConn) do(method, path, token string, body []byte) (int, []byte, error) {
	req, err := appendRequest(c.req[:0], method, path, c.addr, token, body)
	if err != nil {
		return 0, nil, err
	}
	c.req = req
	for attempt := 0; ; attempt++ {
		if c.conn == nil {
			if err := c.dial(); err != nil {
				return 0, nil, err
			}
		}
		reused := c.reused
		status, keep, err := c.roundTrip(method)
		if err == nil {
			c.reused = true
			if !keep {
				c.Close()
			}
			return status, c.body, nil
		}
		c.Close()
		if reused && attempt == 0 && errors.Is(err, errStale) {
			continue
		}
		return 0, nil, fmt.Errorf("loadtest: %s %s: %w", method, path, err)
	}
}

func (c *loadConn) dial() error {
	conn, err := net.Dial("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("loadtest: %w", err)
	}
	c.conn = conn
	c.reused = false
	if c.rd == nil {
		c.rd = bufio.NewReaderSize(conn, loadLineMax)
	} else {
		c.rd.Reset(conn)
	}
	return nil
}

// roundTrip writes c.req and reads the response into c.body. keep: the
// connection may serve another request.
func (c *loadConn) roundTrip(method string) (status int, keep bool, err error) {
	if _, err := c.conn.Write(c.req); err != nil {
		if isClosed(err) {
			return 0, false, fmt.Errorf("%w (%v)", errStale, err)
		}
		return 0, false, err
	}
	if _, err := c.rd.Peek(1); err != nil {
		if isClosed(err) {
			return 0, false, fmt.Errorf("%w (%v)", errStale, err)
		}
		return 0, false, err
	}
	return c.readResponse(method)
}

// isClosed reports whether err says the peer closed the connection.
func isClosed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// appendRequest appends the request's bytes to b.
func appendRequest(b []byte, method, path, host, token string, body []byte) ([]byte, error) {
	if method == "" || !plainToken(method) {
		return nil, fmt.Errorf("loadtest: bad HTTP method %q", method)
	}
	if len(path) == 0 || path[0] != '/' || !plainToken(path) {
		return nil, fmt.Errorf("loadtest: bad request path %q", path)
	}
	if !plainToken(token) {
		return nil, errors.New("loadtest: bad token (spaces or control characters)")
	}
	b = append(b, method...)
	b = append(b, ' ')
	b = append(b, path...)
	b = append(b, " HTTP/1.1\r\nHost: "...)
	b = append(b, host...)
	if token != "" {
		b = append(b, "\r\nAuthorization: Bearer "...)
		b = append(b, token...)
	}
	if body != nil || method == "POST" || method == "PUT" || method == "PATCH" {
		if len(body) > 0 {
			b = append(b, "\r\nContent-Type: application/json"...)
		}
		b = append(b, "\r\nContent-Length: "...)
		b = strconv.AppendInt(b, int64(len(body)), 10)
	}
	b = append(b, "\r\n\r\n"...)
	return append(b, body...), nil
}

// plainToken reports whether s holds only printable ASCII other than space.
func plainToken(s string) bool {
	for i := range len(s) {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// readResponse reads one response: its status line, its headers and its
// body, into c.body.
func (c *loadConn) readResponse(method string) (status int, keep bool, err error) {
	line, err := c.line("status line")
	if err != nil {
		return 0, false, err
	}
	status, keep, err = parseStatusLine(line)
	if err != nil {
		return 0, false, err
	}
	length := int64(-1)
	chunked := false
	for {
		line, err := c.line("header")
		if err != nil {
			return 0, false, err
		}
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			return 0, false, fmt.Errorf("malformed response: folded header line %q", line)
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return 0, false, fmt.Errorf("malformed response: header line %q", line)
		}
		name, value := line[:colon], bytes.Trim(line[colon+1:], " \t")
		switch {
		case asciiEqualFold(name, "Content-Length"):
			n, err := parseLength(value)
			if err != nil {
				return 0, false, err
			}
			if length >= 0 && n != length {
				return 0, false, fmt.Errorf("malformed response: two Content-Lengths, %d and %d", length, n)
			}
			length = n
		case asciiEqualFold(name, "Transfer-Encoding"):
			if !asciiEqualFold(value, "chunked") || chunked {
				return 0, false, fmt.Errorf("unsupported response: Transfer-Encoding %q", value)
			}
			chunked = true
		case asciiEqualFold(name, "Connection"):
			if hasToken(value, "close") {
				keep = false
			}
		}
	}
	c.body = c.body[:0]
	switch {
	case status < 200:
		return 0, false, fmt.Errorf("unexpected informational response %d", status)
	case method == "HEAD" || status == 204 || status == 304:
		// No body, whatever the headers say.
	case chunked:
		// A Content-Length beside it is ignored (RFC 9112, section 6.3).
		if err := c.readChunked(); err != nil {
			return 0, false, err
		}
	case length >= 0:
		if length > loadMaxBody {
			return 0, false, fmt.Errorf("response body of %d bytes is too large (more than %d)", length, loadMaxBody)
		}
		if err := c.readBody(int(length)); err != nil {
			return 0, false, err
		}
	default:
		// Neither: the body runs to the end of the connection.
		keep = false
		if err := c.readToEOF(); err != nil {
			return 0, false, err
		}
	}
	return status, keep, nil
}

// line reads one line without its CRLF (or bare LF). what names the line
// in errors.
func (c *loadConn) line(what string) ([]byte, error) {
	line, err := c.rd.ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return nil, fmt.Errorf("malformed response: %s longer than %d bytes", what, loadLineMax)
	case errors.Is(err, io.EOF):
		return nil, fmt.Errorf("truncated response: connection closed in the %s", what)
	case err != nil:
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// parseStatusLine reads "HTTP/1.x NNN reason". keep: the version keeps the
// connection open by default (1.1).
func parseStatusLine(line []byte) (status int, keep bool, err error) {
	// "HTTP/1.1 200" is the shortest valid form; the reason may be empty.
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' ||
		(len(line) > 12 && line[12] != ' ') {
		return 0, false, fmt.Errorf("malformed response: status line %q", line)
	}
	switch line[7] {
	case '0':
	case '1':
		keep = true
	default:
		return 0, false, fmt.Errorf("malformed response: status line %q", line)
	}
	for _, d := range line[9:12] {
		if d < '0' || d > '9' {
			return 0, false, fmt.Errorf("malformed response: status line %q", line)
		}
		status = status*10 + int(d-'0')
	}
	if status < 100 {
		return 0, false, fmt.Errorf("malformed response: status line %q", line)
	}
	return status, keep, nil
}

// parseLength reads a Content-Length value: decimal digits only.
func parseLength(v []byte) (int64, error) {
	if len(v) == 0 || len(v) > 18 {
		return 0, fmt.Errorf("malformed response: Content-Length %q", v)
	}
	var n int64
	for _, d := range v {
		if d < '0' || d > '9' {
			return 0, fmt.Errorf("malformed response: Content-Length %q", v)
		}
		n = n*10 + int64(d-'0')
	}
	return n, nil
}

// readBody reads n bytes of body into c.body (after what it holds).
func (c *loadConn) readBody(n int) error {
	start := len(c.body)
	if start+n > loadMaxBody {
		return fmt.Errorf("response body too large (more than %d bytes)", loadMaxBody)
	}
	c.body = growTo(c.body, start+n)
	if got, err := io.ReadFull(c.rd, c.body[start:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fmt.Errorf("truncated response: connection closed after %d of %d body bytes", got, n)
		}
		return err
	}
	return nil
}

// growTo returns b resized to n bytes, keeping its contents.
func growTo(b []byte, n int) []byte {
	if n <= cap(b) {
		return b[:n]
	}
	nb := make([]byte, n, max(n, 2*cap(b)))
	copy(nb, b)
	return nb
}

// readChunked reads a chunked body (RFC 9112, section 7.1) into c.body.
func (c *loadConn) readChunked() error {
	for {
		line, err := c.line("chunk size")
		if err != nil {
			return err
		}
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i] // chunk extensions are ignored
		}
		line = bytes.TrimRight(line, " \t")
		size, err := parseHex(line)
		if err != nil {
			return err
		}
		if size == 0 {
			break
		}
		if err := c.readBody(size); err != nil {
			return err
		}
		crlf, err := c.line("chunk")
		if err != nil {
			return err
		}
		if len(crlf) != 0 {
			return errors.New("malformed response: chunk longer than its size")
		}
	}
	for { // trailer fields, ignored, up to the empty line
		line, err := c.line("trailer")
		if err != nil {
			return err
		}
		if len(line) == 0 {
			return nil
		}
	}
}

// parseHex reads a chunk size.
func parseHex(v []byte) (int, error) {
	if len(v) == 0 || len(v) > 8 {
		return 0, fmt.Errorf("malformed response: chunk size %q", v)
	}
	n := 0
	for _, d := range v {
		switch {
		case d >= '0' && d <= '9':
			n = n<<4 | int(d-'0')
		case d >= 'a' && d <= 'f':
			n = n<<4 | int(d-'a'+10)
		case d >= 'A' && d <= 'F':
			n = n<<4 | int(d-'A'+10)
		default:
			return 0, fmt.Errorf("malformed response: chunk size %q", v)
		}
	}
	return n, nil
}

// readToEOF reads the rest of the connection into c.body.
func (c *loadConn) readToEOF() error {
	for {
		if len(c.body) == cap(c.body) {
			if len(c.body) >= loadMaxBody {
				return fmt.Errorf("response body too large (more than %d bytes)", loadMaxBody)
			}
			c.body = append(c.body, 0)[:len(c.body)]
		}
		n, err := c.rd.Read(c.body[len(c.body):cap(c.body)])
		c.body = c.body[:len(c.body)+n]
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// asciiEqualFold reports whether b equals s, ignoring ASCII case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(s) {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// hasToken reports whether the comma-separated list v holds token
// (ignoring ASCII case).
func hasToken(v []byte, token string) bool {
	for len(v) > 0 {
		item := v
		if i := bytes.IndexByte(v, ','); i >= 0 {
			item, v = v[:i], v[i+1:]
		} else {
			v = nil
		}
		if asciiEqualFold(bytes.Trim(item, " \t"), token) {
			return true
		}
	}
	return false
}
