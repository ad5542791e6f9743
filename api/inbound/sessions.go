package inbound

import (
	"net"
	"os"
	"sync"
	"time"

	"pbem/api/clientnet"
)

// sessionLimits bound what one SMTP session may hold: the listener's
// slots, and time.
type sessionLimits struct {
	max      int           // sessions at once, all clients together
	share    int           // sessions at once from one client network (clientnet.Of)
	lifetime time.Duration // a session's whole life, however busy
	idle     time.Duration // time without a useful command (a recipient accepted, DATA)
	idleCmds int           // commands in a row that do nothing (NOOP, RSET, HELP, EHLO, MAIL, a refused RCPT...)
	now      func() time.Time
}

// gate hands out at most max sessions at once, and at most share of them
// to one client network (an IPv4 /24, an IPv6 /64), so that one client
// cannot hold the listener shut for the others. A connection beyond either
// bound is answered "421 4.3.2" (RFC 5321 section 3.8: the service is not
// available for now, try later) and closed at once, so a flood of
// connections costs a goroutine and a write each, never a session.
type gate struct {
	net.Listener
	lim  sessionLimits
	busy func(reason string) // called for each connection refused

	mu     sync.Mutex
	total  int
	client map[string]int
}

func newGate(ln net.Listener, lim sessionLimits, busy func(reason string)) *gate {
	return &gate{Listener: ln, lim: lim, busy: busy, client: map[string]int{}}
}

// The replies of a connection beyond a bound.
const (
	busyReply       = "421 4.3.2 Too many connections, try again later\r\n"
	clientBusyReply = "421 4.3.2 Too many connections from your network, try again later\r\n"
)

// Accept returns the next connection that gets a slot.
func (g *gate) Accept() (net.Conn, error) {
	for {
		c, err := g.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := clientnet.OfAddr(c.RemoteAddr())
		reply, reason := g.take(key)
		if reply == "" {
			start := g.lim.now()
			return &sessionConn{Conn: c, lim: &g.lim, start: start, progress: start, free: func() { g.give(key) }}, nil
		}
		g.busy(reason)
		go refuseBusy(c, reply)
	}
}

// take takes a slot for a client of network key, or returns the reply and
// the refusal reason (RefusedBusy, RefusedClientBusy).
func (g *gate) take(key string) (reply, reason string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.total >= g.lim.max:
		return busyReply, RefusedBusy
	case g.client[key] >= g.lim.share:
		return clientBusyReply, RefusedClientBusy
	}
	g.total++
	g.client[key]++
	return "", ""
}

// give gives back a slot of network key.
func (g *gate) give(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.client[key]--; g.client[key] <= 0 {
		delete(g.client, key)
	}
}

// refuseBusy answers a connection beyond a bound and closes it.
func refuseBusy(c net.Conn, reply string) {
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, _ = c.Write([]byte(reply))
	_ = c.Close()
}

// sessionConn is one session's connection. It gives its slot back when it
// is closed (once, however often it is closed), and it bounds the session
// in time: go-smtp sets a read deadline before it reads each command, and
// sessionConn moves that deadline no later than the end of the session's
// lifetime and than its idle time after the last useful command (a
// recipient the session's Rcpt accepted, or its Data: Progress), so that
// NOOP, RSET, HELP, MAIL alone, refused recipients and the like never keep
// a session alive; and a session that sends more
// than idleCmds such commands in a row is cut at once. Time is read from
// lim.now, so tests move it; a Read past the lifetime or the idle time
// (by that clock) fails as a timeout, which go-smtp answers "421 4.4.2"
// and closes.
type sessionConn struct {
	net.Conn
	lim   *sessionLimits
	start time.Time
	once  sync.Once
	free  func()

	mu       sync.Mutex
	progress time.Time // the last useful command
	idleCmds int       // commands read since it
}

// Progress records a useful command (a recipient accepted, DATA): the idle time and
// the idle command count start again.
func (c *sessionConn) Progress() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.progress = c.lim.now()
	c.idleCmds = 0
}

// SetReadDeadline is called by go-smtp before it reads a command: it
// counts the command and sets the deadline t, or earlier as the session's
// bounds say.
func (c *sessionConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	c.idleCmds++
	left := c.leftLocked()
	if c.idleCmds > c.lim.idleCmds { // this call precedes the command it counts
		left = 0
	}
	c.mu.Unlock()
	if d := time.Now().Add(left); d.Before(t) || t.IsZero() {
		t = d
	}
	return c.Conn.SetReadDeadline(t)
}

// leftLocked is the time the session may still wait for its client: to the
// end of its lifetime or of its idle time, whichever comes first (zero or
// less when past). c.mu is held.
func (c *sessionConn) leftLocked() time.Duration {
	now := c.lim.now()
	return min(c.start.Add(c.lim.lifetime).Sub(now), c.progress.Add(c.lim.idle).Sub(now))
}

// Read reads from the client, and fails as a timeout once the session is
// past its lifetime or idle time, before it reads and whatever it read.
func (c *sessionConn) Read(p []byte) (int, error) {
	if c.left() <= 0 {
		return 0, os.ErrDeadlineExceeded
	}
	n, err := c.Conn.Read(p)
	if c.left() <= 0 {
		return 0, os.ErrDeadlineExceeded
	}
	return n, err
}

// left is leftLocked under c.mu.
func (c *sessionConn) left() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.leftLocked()
}

// Close closes the connection and gives its slot back.
func (c *sessionConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}
