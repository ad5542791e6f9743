package notify

import (
	"sync"
	"time"

	"github.com/wneessen/go-mail/smtp"
)

// Kept connections: how many a sender keeps open between batches at most,
// and how long one may wait unused before it is closed rather than reused
// (relays close idle sessions after a while; RFC 5321 section 4.5.3.2.7
// lets a server wait only 5 minutes).
const (
	maxIdleConns    = 64
	idleConnTimeout = 30 * time.Second
)

// connPool holds the open SMTP connections of one SMTPSender between
// batches, so that a stream of emails goes out on a few long-lived
// connections instead of one new connection (TCP, EHLO, STARTTLS, AUTH)
// per batch. A connection is taken by one batch at a time; the number of
// connections is bounded by the number of batches sent at once (the
// worker's senders).
type connPool struct {
	mu     sync.Mutex
	idle   []idleConn // most recently used last
	closed bool
	now    func() time.Time
}

type idleConn struct {
	c     *smtp.Client
	since time.Time
}

// get returns the most recently used open connection, or nil; it closes
// the connections that waited too long.
func (p *connPool) get() *smtp.Client {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.prune()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1].c
		p.idle = p.idle[:n-1]
		return c
	}
	return nil
}

// put keeps c for the next batch (closes it if the pool is full or
// closed). A nil c is ignored.
func (p *connPool) put(c *smtp.Client) {
	if c == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.prune()
	if p.closed || len(p.idle) >= maxIdleConns {
		go quit(c)
		return
	}
	p.idle = append(p.idle, idleConn{c: c, since: p.now()})
}

// prune closes the connections idle for longer than idleConnTimeout
// (p.mu held). The oldest are first.
func (p *connPool) prune() {
	now := p.now()
	n := 0
	for n < len(p.idle) && now.Sub(p.idle[n].since) > idleConnTimeout {
		go quit(p.idle[n].c)
		n++
	}
	p.idle = append(p.idle[:0], p.idle[n:]...)
}

// close quits every kept connection; later puts close theirs at once.
func (p *connPool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, ic := range idle {
		quit(ic.c)
	}
}

// quit ends a connection politely (QUIT), or just closes it.
func quit(c *smtp.Client) {
	if c.Quit() != nil {
		_ = c.Close()
	}
}
