package inbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/notify"
)

// ListenerConfig configures the SMTP listener.
type ListenerConfig struct {
	// Addr is PBEM_INBOUND_LISTEN, e.g. ":2525".
	Addr string
	// Hostname is the name the listener greets with (PBEM_SMTP_HELO,
	// default the public URL's host); empty: the reply domain.
	Hostname string
	// MaxBytes is the largest message accepted (PBEM_INBOUND_MAX_BYTES;
	// default DefaultMaxBytes): one declared bigger (MAIL FROM's SIZE) is
	// refused with 552 at once, and one that grows bigger while it is sent
	// is refused with 552 at its end, so memory stays bounded whatever
	// arrives.
	MaxBytes int64
	// MaxRecipients bounds the recipients of one message (default 10).
	MaxRecipients int
	// MaxSessions bounds the SMTP sessions served at once (default
	// DefaultMaxSessions): a connection beyond it is answered 421 and
	// closed, and the sender tries again later.
	MaxSessions int
	// MaxSessionsPerClient bounds the sessions served at once to one
	// client network, an IPv4 /24 or an IPv6 /64 (default a quarter of
	// MaxSessions, at least 1): beyond it, 421 too, so that one client
	// never holds the slots the others need.
	MaxSessionsPerClient int
	// SessionLifetime bounds a session's whole life, however busy
	// (default DefaultSessionLifetime).
	SessionLifetime time.Duration
	// IdleTimeout is how long a session may go without a useful command
	// (a recipient accepted, DATA; default DefaultIdleTimeout). Commands
	// that do nothing (NOOP, RSET, HELP, VRFY, EHLO, MAIL alone, a refused
	// RCPT, unknown ones) do not restart it.
	IdleTimeout time.Duration
	// MaxIdleCommands bounds the commands that do nothing in a row
	// (default DefaultMaxIdleCommands): one more and the session is cut
	// with 421.
	MaxIdleCommands int
	// Now is the clock of the session bounds (default time.Now); tests
	// move it.
	Now func() time.Time
	// Metrics, if set, counts refusals and accepted messages.
	Metrics *Metrics
	Logger  *slog.Logger
}

// DefaultMaxBytes is ListenerConfig.MaxBytes' default: 2 MiB, plenty for a
// reply with its quoted HTML.
const DefaultMaxBytes = 2 << 20

// DefaultMaxSessions is ListenerConfig.MaxSessions' default: more than a
// small server's relays open at once, few enough that the sessions'
// messages (MaxBytes each) and their reading stay bounded.
const DefaultMaxSessions = 32

// The defaults of a session's bounds: a relay delivers a reply in
// seconds, and a 2 MiB one over a slow link within minutes.
const (
	DefaultSessionLifetime = 10 * time.Minute
	DefaultIdleTimeout     = time.Minute
	DefaultMaxIdleCommands = 10
)

// Listener is the inbound SMTP server: it accepts mail for reply addresses
// only (550 for any other recipient, forged or revoked ones included) and
// hands each message to the Processor.
//
// It offers SMTPUTF8 (RFC 6531), so that a relay passes on replies whose
// headers hold raw UTF-8 (a From name "Élodie", a subject "Re: À vous de
// jouer", as phones write them) instead of bouncing them, and 8BITMIME.
// Every refusal is logged, with the reply secret of the address left out,
// and counted (Metrics).
type Listener struct {
	srv      *smtp.Server
	p        *Processor
	log      *slog.Logger
	metrics  *Metrics
	maxBytes int64
	limits   sessionLimits
}

// NewListener returns a listener for p. Serve starts it.
func NewListener(p *Processor, c ListenerConfig) *Listener {
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MaxRecipients <= 0 {
		c.MaxRecipients = 10
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = DefaultMaxSessions
	}
	if c.MaxSessionsPerClient <= 0 {
		c.MaxSessionsPerClient = max(1, c.MaxSessions/4)
	}
	if c.SessionLifetime <= 0 {
		c.SessionLifetime = DefaultSessionLifetime
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxIdleCommands <= 0 {
		c.MaxIdleCommands = DefaultMaxIdleCommands
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Hostname == "" {
		c.Hostname = p.Domain()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	l := &Listener{p: p, log: c.Logger, metrics: c.Metrics, maxBytes: c.MaxBytes, limits: sessionLimits{
		max: c.MaxSessions, share: c.MaxSessionsPerClient, lifetime: c.SessionLifetime,
		idle: c.IdleTimeout, idleCmds: c.MaxIdleCommands, now: c.Now}}
	s := smtp.NewServer(l)
	s.Addr = c.Addr
	s.Domain = c.Hostname
	// The size limit is the session's (Mail and Data), not go-smtp's, so
	// that its refusals are logged and counted; EHLO then advertises SIZE
	// without a number, and MAIL FROM's SIZE is still checked.
	s.MaxMessageBytes = 0
	s.MaxRecipients = c.MaxRecipients
	s.EnableSMTPUTF8 = true
	// The read deadline go-smtp sets before each command is moved earlier
	// by the session's bounds (sessionConn).
	s.ReadTimeout = c.IdleTimeout
	s.WriteTimeout = time.Minute
	s.AllowInsecureAuth = false
	l.srv = s
	return l
}

// Serve accepts connections on ln until Close, at most MaxSessions at
// once and MaxSessionsPerClient from one client network.
func (l *Listener) Serve(ln net.Listener) error {
	err := l.srv.Serve(newGate(ln, l.limits, l.metrics.refuse))
	if errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting and waits for open sessions until ctx ends.
func (l *Listener) Shutdown(ctx context.Context) error { return l.srv.Shutdown(ctx) }

// NewSession implements smtp.Backend.
func (l *Listener) NewSession(c *smtp.Conn) (smtp.Session, error) {
	s := &session{l: l}
	if p, ok := c.Conn().(interface{ Progress() }); ok {
		s.progress = p.Progress
	} else {
		s.progress = func() {}
	}
	return s, nil
}

// session is one SMTP transaction at a time.
type session struct {
	l        *Listener
	from     string
	to       []notify.ReplyAddress
	progress func() // a useful command came: a recipient accepted, DATA (sessionConn.Progress)
}

func (s *session) Mail(from string, opts *smtp.MailOptions) error {
	s.from, s.to = from, nil
	if opts != nil && opts.Size > s.l.maxBytes {
		return s.l.refuse(RefusedTooBig, "", "declared size", opts.Size)
	}
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := s.l.p.Check(ctx, to)
	var refused *RefusedError
	switch {
	case errors.As(err, &refused):
		_ = s.l.refuse(refused.Kind, to, "from", s.from)
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: refused.Reason}
	case err != nil:
		s.l.metrics.refuse(RefusedTemporary)
		s.l.log.Error("inbound: check recipient", "rcpt", redact(to), "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	s.to = append(s.to, a)
	s.progress()
	return nil
}

func (s *session) Data(r io.Reader) error {
	s.progress()
	raw, err := io.ReadAll(io.LimitReader(r, s.l.maxBytes+1))
	if err != nil {
		// A read error names the sockets (read tcp a:p->b:q: i/o
		// timeout): it is logged, never answered.
		s.l.metrics.refuse(RefusedTemporary)
		s.l.log.Info("inbound: message not received whole", "from", s.from, "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: "the message was not received whole in time, try again"}
	}
	if int64(len(raw)) > s.l.maxBytes {
		// go-smtp reads and drops the rest.
		return s.l.refuse(RefusedTooBig, "", "from", s.from)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, a := range s.to {
		out, err := s.l.p.Handle(ctx, s.from, a, raw)
		var shape *ShapeError
		if errors.As(err, &shape) {
			s.l.metrics.refuse(RefusedShape)
			s.l.log.Warn("inbound: message refused unread", "game", a.GameID, "seat", a.Seat, "reason", shape.Reason, "from", s.from)
			return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: shape.Reason}
		}
		if err != nil {
			s.l.metrics.refuse(RefusedTemporary)
			s.l.log.Error("inbound: handle", "game", a.GameID, "seat", a.Seat, "err", err)
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
		}
		s.l.metrics.accepted(out)
		s.l.log.Info("inbound: reply", "game", a.GameID, "seat", a.Seat, "outcome", string(out), "bytes", len(raw))
	}
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }

// refuse logs and counts a refusal and returns its SMTP error: 552 for a
// message too big, else 550. rcpt is the refused recipient ("" for a
// message), logged without its secret; args are more of the log line.
func (l *Listener) refuse(reason, rcpt string, args ...any) error {
	l.metrics.refuse(reason)
	if reason == RefusedTooBig {
		l.log.Info("inbound: refused: message too big", append([]any{"max_bytes", l.maxBytes}, args...)...)
		return &smtp.SMTPError{Code: 552, EnhancedCode: smtp.EnhancedCode{5, 3, 4},
			Message: fmt.Sprintf("message too big (at most %d bytes)", l.maxBytes)}
	}
	l.log.Info("inbound: refused recipient", append([]any{"reason", reason, "rcpt", redact(rcpt)}, args...)...)
	return nil
}

// redact is an address as logged: the last dash-separated part of its
// local part, which is the secret of a reply address
// (GAME-SEAT-CHOICE-SECRET), replaced by "…"; at most 120 characters,
// control characters replaced by "?".
func redact(addr string) string {
	addr = strings.Trim(strings.TrimSpace(addr), "<>")
	local, domain, ok := strings.Cut(addr, "@")
	if i := strings.LastIndexByte(local, '-'); i >= 0 {
		local = local[:i+1] + "…"
	}
	if ok {
		local += "@" + domain
	}
	b := make([]rune, 0, len(local))
	for _, c := range local {
		if len(b) == 120 {
			b = append(b, '…')
			break
		}
		if c < ' ' || c == 0x7f {
			c = '?'
		}
		b = append(b, c)
	}
	return string(b)
}
