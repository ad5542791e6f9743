package api

import (
	"bytes"
	"io"
	"net"
	"strconv"
)

// connBufferSize is the size of the buffer net/http writes a response
// through on a connection (its bufio.Writer of 4 KiB): a response larger
// than it leaves in two writes, its first 4 KiB (the header and the body's
// start) when the buffer fills, the rest when the handler returns.
const connBufferSize = 4 << 10

// OneWrite wraps ln so that a response that net/http sends in two writes,
// the first a full buffer, leaves in one system call (writev) where the
// response fits: a 6.7 KB view then costs one write, not two. A write is
// held only when it is a full buffer that starts a response whose header
// is whole and whose Content-Length says that more of its body follows;
// the next write sends it with what follows, in one Write
// (a copy of up to 60 KiB) or, beyond, one writev. Anything else (a
// chunked or short response, TLS records, a hijacked stream) passes as it
// came. A connection closed with a response held had that response cut
// short anyway (the rest was never written); Close does not touch what is
// held, so that net/http may close from another goroutine. For plain HTTP
// listeners: under TLS the bytes are records.
func OneWrite(ln net.Listener) net.Listener { return oneWriteListener{ln} }

type oneWriteListener struct{ net.Listener }

func (l oneWriteListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &oneWriteConn{Conn: c}, nil
}

// oneWriteConn is a connection whose response starts may be held (held)
// until the rest of the response is written.
type oneWriteConn struct {
	net.Conn
	held []byte // a response's first buffer, not yet sent
	buf  []byte // held's storage, reused
}

func (c *oneWriteConn) Write(p []byte) (int, error) {
	if c.held != nil {
		return c.sendHeld(p)
	}
	if len(p) == connBufferSize && promisesMore(p) {
		c.buf = append(c.buf[:0], p...)
		c.held = c.buf
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// joinLimit is the most sendHeld copies after the held bytes to send them
// in one Write; beyond it, the two go in one writev (net.Buffers).
const joinLimit = 60 << 10

// sendHeld sends the held bytes and p in one call; it returns how much of
// p was sent.
func (c *oneWriteConn) sendHeld(p []byte) (int, error) {
	h := len(c.held)
	var n int64
	var err error
	if len(p) <= joinLimit {
		c.buf = append(c.held, p...)
		var k int
		k, err = c.Conn.Write(c.buf)
		n = int64(k)
	} else {
		bufs := net.Buffers{c.held, p}
		n, err = bufs.WriteTo(c.Conn)
	}
	c.held = nil
	if cap(c.buf) > 16<<10 {
		c.buf = nil // kept between responses only when small
	}
	sent := int(n) - h
	if sent < 0 {
		sent = 0
	}
	return sent, err
}

// ReadFrom keeps net/http's sendfile path: it sends what is held, then
// hands r to the connection's own ReadFrom when it has one.
func (c *oneWriteConn) ReadFrom(r io.Reader) (int64, error) {
	if c.held != nil {
		if _, err := c.sendHeld(nil); err != nil {
			return 0, err
		}
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// promisesMore tells whether p starts an HTTP/1.x response whose header is
// whole in p and whose Content-Length says its body goes beyond p.
func promisesMore(p []byte) bool {
	if !bytes.HasPrefix(p, []byte("HTTP/1.")) {
		return false
	}
	end := bytes.Index(p, []byte("\r\n\r\n"))
	if end < 0 {
		return false
	}
	head := p[:end+2]
	const key = "\r\nContent-Length: "
	i := bytes.Index(head, []byte(key))
	if i < 0 {
		return false
	}
	v := head[i+len(key):]
	v = v[:bytes.IndexByte(v, '\r')]
	n, err := strconv.Atoi(string(v))
	// Body bytes in p: not the answer to a HEAD request, which has none.
	return err == nil && end+4 < len(p) && end+4+n > len(p)
}
