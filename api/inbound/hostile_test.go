package inbound_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/api/inbound"
)

// The hostile-input suite, mail half (issue 29): each attack is sent to
// the real listener on loopback, and the test checks the SMTP answer and
// that nothing changed (the game's version, no answer email). The HTTP
// attacks are in api/hostile_test.go.

// hostileAnswerWithin bounds the time to the SMTP answer of any message in
// this suite: "within seconds", with room for a loaded machine.
const hostileAnswerWithin = 20 * time.Second

// listen starts another listener on e's processor, configured by lc, and
// returns its address.
func (e *env) listen(lc inbound.ListenerConfig) string {
	e.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		e.t.Fatal(err)
	}
	lis := inbound.NewListener(e.proc, lc)
	go func() { _ = lis.Serve(ln) }()
	e.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = lis.Shutdown(ctx)
	})
	return ln.Addr().String()
}

// at is e sending to the listener at addr.
func (e *env) at(addr string) *env {
	c := *e
	c.addr = addr
	return &c
}

// cpuTime is the CPU time this process (the server's listener included)
// has used so far.
func cpuTime(t testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// replyHeader is the header of a reply to em, without its Content-Type.
func replyHeader(em email, msgID string) string {
	return "From: " + em.to + "\nTo: " + em.replyTo + "\nSubject: Re: " + em.subject + "\nMessage-ID: <" + msgID +
		">\nMIME-Version: 1.0\n"
}

// nested is a reply nested levels deep in multipart/mixed parts, the last
// holding "1" as text: 70 bytes a level, as in the 1.7 MB message
// of 24,000 levels. closed: the multiparts are closed, as a client would.
func nested(em email, levels int, closed bool) string {
	var b strings.Builder
	b.WriteString(replyHeader(em, fmt.Sprintf("nested-%d@client.example.org", levels)))
	for i := range levels {
		fmt.Fprintf(&b, "Content-Type: multipart/mixed; boundary=\"lvl-%05d_\"\n\n--lvl-%05d_\n", i, i)
	}
	b.WriteString("Content-Type: text/plain\n\n1\n")
	for i := levels - 1; closed && i >= 0; i-- {
		fmt.Fprintf(&b, "--lvl-%05d_--\n", i)
	}
	return b.String()
}

// wrapped cuts s into lines of 76 characters, as MIME encoders do (the
// SMTP listener refuses lines over 2,000 characters before any parsing).
func wrapped(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\n")
		s = s[76:]
	}
	b.WriteString(s)
	return b.String()
}

// wide is a reply of n text parts in one multipart.
func wide(em email, n int) string {
	var b strings.Builder
	b.WriteString(replyHeader(em, fmt.Sprintf("wide-%d@client.example.org", n)))
	b.WriteString("Content-Type: multipart/mixed; boundary=\"w\"\n\n")
	for range n {
		b.WriteString("--w\nContent-Type: text/plain\n\n1\n")
	}
	b.WriteString("--w--\n")
	return b.String()
}

// refusedUnread checks that err is the listener's 554 5.6.0.
func refusedUnread(t *testing.T, what string, err error) {
	t.Helper()
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 554 || se.EnhancedCode != (smtp.EnhancedCode{5, 6, 0}) {
		t.Errorf("%s: the listener answered %v, want 554 5.6.0", what, err)
	}
}

// unchanged checks that the game is at version v and that nobody got an
// email.
func (e *env) unchanged(t *testing.T, what, id string, v int64) {
	t.Helper()
	if got := e.version(id); got != v {
		t.Errorf("%s: the game moved from version %d to %d", what, v, got)
	}
	if got := e.inbox(); len(got) > 0 {
		t.Errorf("%s: %d emails were sent (first: %q)", what, len(got), got[0].subject)
	}
}

// TestHostileNestedMultipart: the message, 24,000 levels of
// multipart in 1.7 MB, is refused within seconds, unread; the time to the
// answer and the CPU time it cost are logged (go test -v -run
// TestHostileNestedMultipart ./api/inbound/).
func TestHostileNestedMultipart(t *testing.T) {
	e := newEnv(t)
	id, em := e.start("en")
	v := e.version(id)
	full := e.at(e.listen(inbound.ListenerConfig{})) // the default size limit, 2 MiB
	for _, levels := range []int{inbound.MaxDepth + 1, 6000, 24000} {
		msg := nested(em, levels, false)
		cpu, start := cpuTime(t), time.Now()
		err := full.send(em.to, em.replyTo, msg)
		took, spent := time.Since(start), cpuTime(t)-cpu
		t.Logf("%d levels, %d bytes: answered in %v, %v CPU: %v", levels, len(msg)+strings.Count(msg, "\n"), took.Round(time.Millisecond), spent.Round(time.Millisecond), err)
		refusedUnread(t, fmt.Sprintf("%d levels", levels), err)
		if took > hostileAnswerWithin {
			t.Errorf("%d levels: answered after %v", levels, took)
		}
	}
	e.unchanged(t, "nested multiparts", id, v)
	// Nesting within the limit is read as usual.
	if err := e.send(em.to, em.replyTo, nested(em, inbound.MaxDepth-1, true)); err != nil {
		t.Fatalf("a reply %d levels deep: %v", inbound.MaxDepth-1, err)
	}
	if e.version(id) == v {
		t.Error("a reply nested within the limit was not played")
	}
}

// TestHostileManyParts: a message of more than MaxMIMEParts parts, and
// one with a boundary longer than any client writes, are refused unread.
func TestHostileManyParts(t *testing.T) {
	e := newEnv(t)
	id, em := e.start("en")
	v := e.version(id)
	refusedUnread(t, "20,000 parts", e.send(em.to, em.replyTo, wide(em, 20000)))
	// A boundary of 1,500 characters (SMTP lines stop at 2,000): RFC 2231
	// continuations, 30 of 50 characters.
	var long, params strings.Builder
	for i := range 30 {
		chunk := fmt.Sprintf("%050d", i)
		long.WriteString(chunk)
		fmt.Fprintf(&params, ";\n boundary*%d=\"%s\"", i, chunk)
	}
	msg := replyHeader(em, "long@client.example.org") + "Content-Type: multipart/mixed" + params.String() + "\n\n--" + long.String() +
		"\nContent-Type: text/plain\n\n1\n--" + long.String() + "--\n"
	refusedUnread(t, "a 1,500-character boundary", e.send(em.to, em.replyTo, msg))
	e.unchanged(t, "many parts", id, v)
	if got := e.metric("pbem_inbound_refused_total", inbound.RefusedShape).value(); got != 2 {
		t.Errorf("pbem_inbound_refused_total{reason=%q} = %v, want 2", inbound.RefusedShape, got)
	}
	if err := e.send(em.to, em.replyTo, wide(em, 20)); err != nil {
		t.Fatalf("a reply of 20 parts: %v", err)
	}
	if e.version(id) == v {
		t.Error("a reply of 20 parts was not played")
	}
}

// TestHostileSlowToRead: reading stops at the read deadline; the message
// is refused unread and nothing is played.
func TestHostileSlowToRead(t *testing.T) {
	e := newEnv(t, func(c *inboundConfig) { c.ReadTimeout = time.Nanosecond })
	id, em := e.start("en")
	v := e.version(id)
	refusedUnread(t, "a reply read past its deadline", e.send(em.to, em.replyTo, plain(em, "slow@client.example.org", "1")))
	e.unchanged(t, "a reply read past its deadline", id, v)
}

// TestHostileHeavyContent: what a parser may choke on, within the size
// limit and the structure limits, is answered within seconds, and plays
// nothing: deeply nested HTML, an unknown charset, broken encodings,
// a huge header, a line of 1.9 MB.
func TestHostileHeavyContent(t *testing.T) {
	e := newEnv(t)
	id, em := e.start("en")
	v := e.version(id)
	full := e.at(e.listen(inbound.ListenerConfig{})) // the default size limit, 2 MiB
	attacks := map[string]string{
		"nested HTML":              "Content-Type: text/html\n\n" + wrapped(strings.Repeat("<div>", 350000)+"1"),
		"nested HTML tables":       "Content-Type: text/html\n\n" + wrapped(strings.Repeat("<table><tr><td>", 120000)+"1"),
		"unclosed HTML elements":   "Content-Type: text/html\n\n" + wrapped(strings.Repeat("<b><i><u><a>", 150000)+"1"),
		"unknown charset":          "Content-Type: text/plain; charset=x-no-such-charset\n\n\xff\xfe nonsense",
		"UTF-7 charset":            "Content-Type: text/plain; charset=utf-7\n\n+AGEAYgBj-",
		"broken base64":            "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n" + wrapped(strings.Repeat("!!!!", 400000)),
		"broken quoted-printable":  "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n" + strings.Repeat("=ZZ=\n", 300000),
		"a long soft-wrapped line": "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n" + strings.Repeat(strings.Repeat("x", 70)+"=\n", 25000),
		"a huge folded header":     "X-Junk: " + strings.Repeat("a\n ", 400000) + "\nContent-Type: text/plain\n\nhello",
		"many header fields":       strings.Repeat("X-Junk: a\n", 150000) + "Content-Type: text/plain\n\nhello",
	}
	n := 0
	for what, body := range attacks {
		n++
		cpu, start := cpuTime(t), time.Now()
		err := full.send(em.to, em.replyTo, replyHeader(em, fmt.Sprintf("heavy-%d@client.example.org", n))+body)
		took, spent := time.Since(start), cpuTime(t)-cpu
		t.Logf("%s: answered in %v, %v CPU: %v", what, took.Round(time.Millisecond), spent.Round(time.Millisecond), err)
		if took > hostileAnswerWithin {
			t.Errorf("%s: answered after %v", what, took)
		}
		var se *smtp.SMTPError
		if errors.As(err, &se) && se.Code == 552 {
			t.Errorf("%s: refused as too big (%d bytes): the attack must reach the reader", what, len(body))
		}
		if got := e.version(id); got != v {
			t.Fatalf("%s: the game moved from version %d to %d", what, v, got)
		}
	}
}

// TestHostileSessionFlood: beyond MaxSessions sessions at once, a
// connection is answered 421 and closed; once a session ends, the next
// connection is served.
func TestHostileSessionFlood(t *testing.T) {
	e := newEnv(t)
	addr := e.listen(inbound.ListenerConfig{MaxSessions: 2, MaxSessionsPerClient: 2})
	greet := func() (net.Conn, string) {
		t.Helper()
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(hostileAnswerWithin))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Fatalf("no greeting: %v", err)
		}
		return c, line
	}
	var held []net.Conn
	for range 2 {
		c, line := greet()
		if !strings.HasPrefix(line, "220 ") {
			t.Fatalf("session within the bound greeted %q", line)
		}
		held = append(held, c)
	}
	for range 20 {
		c, line := greet()
		if !strings.HasPrefix(line, "421 4.3.2 ") {
			t.Fatalf("a session beyond the bound greeted %q, want 421", line)
		}
		c.Close()
	}
	held[0].Close()
	for deadline := time.Now().Add(hostileAnswerWithin); ; {
		c, line := greet()
		c.Close()
		if strings.HasPrefix(line, "220 ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed session's slot was not given back: %q", line)
		}
		time.Sleep(10 * time.Millisecond) // polling for the server to notice the close
	}
	held[1].Close()
}
