package inbound

import (
	"net"
	"sync"
	"time"
)

// boundedListener hands out at most n connections at once. A connection
// accepted beyond them is answered "421 4.3.2" (RFC 5321 section 3.8: the
// service is not available for now, try later) and closed at once, so a
// flood of connections costs a goroutine and a write each, never a session.
type boundedListener struct {
	net.Listener
	slots chan struct{}
	busy  func() // called for each connection refused
}

func newBoundedListener(ln net.Listener, n int, busy func()) *boundedListener {
	return &boundedListener{Listener: ln, slots: make(chan struct{}, n), busy: busy}
}

// busyReply is what a connection beyond the bound reads.
const busyReply = "421 4.3.2 Too many connections, try again later\r\n"

// Accept returns the next connection that gets a slot.
func (b *boundedListener) Accept() (net.Conn, error) {
	for {
		c, err := b.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case b.slots <- struct{}{}:
			return &slotConn{Conn: c, free: func() { <-b.slots }}, nil
		default:
			b.busy()
			go refuseBusy(c)
		}
	}
}

// refuseBusy answers a connection beyond the bound and closes it.
func refuseBusy(c net.Conn) {
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, _ = c.Write([]byte(busyReply))
	_ = c.Close()
}

// slotConn gives its slot back when it is closed (once, however often it
// is closed).
type slotConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}
