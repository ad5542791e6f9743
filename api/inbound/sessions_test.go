package inbound_test

import (
	"bufio"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/api/inbound"
)

// rawSession is an SMTP session the test writes by hand, from a chosen
// source address.
type rawSession struct {
	t  *testing.T
	c  net.Conn
	r  *bufio.Reader
	hi string // the greeting
}

// dialFrom opens a session to addr from the loopback address src (any
// 127.x.y.z: Linux answers the whole 127/8 on lo) and reads its greeting.
func dialFrom(t *testing.T, src, addr string) *rawSession {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", src, err)
	}
	t.Cleanup(func() { c.Close() })
	s := &rawSession{t: t, c: c, r: bufio.NewReader(c)}
	s.hi = s.reply()
	return s
}

// reply reads one reply (all its lines) and returns its last line.
func (s *rawSession) reply() string {
	s.t.Helper()
	_ = s.c.SetReadDeadline(time.Now().Add(hostileAnswerWithin))
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return "(closed: " + err.Error() + ")"
		}
		if len(line) < 4 || line[3] != '-' {
			return strings.TrimRight(line, "\r\n")
		}
	}
}

// cmd sends one command line and returns the reply's last line.
func (s *rawSession) cmd(line string) string {
	s.t.Helper()
	if _, err := s.c.Write([]byte(line + "\r\n")); err != nil {
		return "(closed: " + err.Error() + ")"
	}
	return s.reply()
}

// want sends line and fails unless the reply starts with code.
func (s *rawSession) want(line, code string) {
	s.t.Helper()
	if got := s.cmd(line); !strings.HasPrefix(got, code) {
		s.t.Fatalf("%s: answered %q, want %s", line, got, code)
	}
}

// TestOneNetworkCannotHoldTheListener: the attack, 32 idle
// sessions from one client, each sending NOOP: they come from eight
// addresses of one /24, and a reply from another network is still
// answered 250 and played.
func TestOneNetworkCannotHoldTheListener(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	addr := e.listen(inbound.ListenerConfig{}) // the defaults: 32 sessions at once
	id, em := e.start("en")
	v := e.version(id)
	held, refused := 0, 0
	for i := range 32 {
		s := dialFrom(t, "127.0.0."+string(rune('2'+i%8)), addr)
		switch {
		case strings.HasPrefix(s.hi, "220 "):
			held++
			s.want("EHLO attacker.example", "250")
			s.want("NOOP", "250")
		case strings.HasPrefix(s.hi, "421 4.3.2 "):
			refused++
		default:
			t.Fatalf("session %d greeted %q", i, s.hi)
		}
	}
	t.Logf("one /24: %d sessions held, %d refused", held, refused)
	if held > inbound.DefaultMaxSessions/2 {
		t.Errorf("one /24 holds %d of %d sessions", held, inbound.DefaultMaxSessions)
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.1.7")}, Timeout: 5 * time.Second}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	c := smtp.NewClient(conn)
	defer c.Close()
	if err := c.Hello("relay.example.org"); err != nil {
		t.Fatalf("a relay of another network was refused: %v", err)
	}
	if err := c.SendMail(em.to, []string{em.replyTo}, strings.NewReader(strings.ReplaceAll(plain(em, "other-net@relay.example.org", "1"), "\n", "\r\n"))); err != nil {
		t.Fatalf("the reply from another network was not answered 250: %v", err)
	}
	if e.version(id) == v {
		t.Error("the reply from another network was not played")
	}
}

// clock is a clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestIdleCommandsDoNotKeepASessionAlive: NOOP, RSET, HELP do not restart
// the idle time, and too many of them in a row end the session.
func TestIdleCommandsDoNotKeepASessionAlive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clk := &clock{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	addr := e.listen(inbound.ListenerConfig{IdleTimeout: time.Minute, MaxIdleCommands: 5, Now: clk.Now})

	s := dialFrom(t, "127.0.0.2", addr)
	s.want("EHLO attacker.example", "250")
	clk.add(40 * time.Second)
	s.want("NOOP", "250")
	clk.add(15 * time.Second)
	s.want("RSET", "250")
	clk.add(10 * time.Second) // 65 s without a useful command
	s.want("NOOP", "421")

	s = dialFrom(t, "127.0.0.3", addr)
	s.want("EHLO attacker.example", "250")
	for range 4 { // five commands that do nothing in a row: the bound
		s.want("NOOP", "250")
	}
	s.want("HELP", "421")
}

// TestSessionLifetimeIsBounded: a session that keeps doing useful work
// (a recipient accepted every 50 s) is still ended at its lifetime.
func TestSessionLifetimeIsBounded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, em := e.start("en")
	clk := &clock{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	addr := e.listen(inbound.ListenerConfig{SessionLifetime: 10 * time.Minute, IdleTimeout: time.Minute, Now: clk.Now})

	s := dialFrom(t, "127.0.0.2", addr)
	s.want("EHLO relay.example", "250")
	for elapsed := time.Duration(0); elapsed < 10*time.Minute; elapsed += 50 * time.Second {
		s.want("MAIL FROM:<"+em.to+">", "250")
		s.want("RCPT TO:<"+em.replyTo+">", "250")
		s.want("RSET", "250")
		clk.add(50 * time.Second)
	}
	s.want("MAIL FROM:<"+em.to+">", "421")
}

// TestDataDeadlineAnswerNamesNoSocket: a reply cut by the session's
// deadline in the middle of DATA is answered without the addresses of the
// sockets. The deadline is the session's lifetime, counted from its
// start: the idle time would be counted from the DATA command's progress,
// which the server records only after its 354 (go-smtp calls Data after
// it), so a clock moved on as soon as the client reads the 354 could come
// before it, and the session would wait for the rest of the message (it
// failed so once under load, with the client's own 20 s timeout).
func TestDataDeadlineAnswerNamesNoSocket(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, em := e.start("en")
	clk := &clock{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	addr := e.listen(inbound.ListenerConfig{SessionLifetime: time.Minute, IdleTimeout: time.Hour, Now: clk.Now})

	s := dialFrom(t, "127.0.0.2", addr)
	s.want("EHLO relay.example", "250")
	s.want("MAIL FROM:<"+em.to+">", "250")
	s.want("RCPT TO:<"+em.replyTo+">", "250")
	s.want("DATA", "354")
	if _, err := s.c.Write([]byte("From: " + em.to + "\r\nSubject: half\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	clk.add(2 * time.Minute)
	got := s.cmd("the rest of the message")
	if !strings.HasPrefix(got, "4") {
		t.Errorf("a reply cut by the deadline answered %q, want 4xx", got)
	}
	for _, a := range []string{s.c.LocalAddr().String(), s.c.RemoteAddr().String(), "127.0.0.", "tcp"} {
		if strings.Contains(got, a) {
			t.Errorf("the answer %q names the socket (%s)", got, a)
		}
	}
}
