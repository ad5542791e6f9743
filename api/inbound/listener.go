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
	sessions int
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
	if c.Hostname == "" {
		c.Hostname = p.Domain()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	l := &Listener{p: p, log: c.Logger, metrics: c.Metrics, maxBytes: c.MaxBytes, sessions: c.MaxSessions}
	s := smtp.NewServer(l)
	s.Addr = c.Addr
	s.Domain = c.Hostname
	// The size limit is the session's (Mail and Data), not go-smtp's, so
	// that its refusals are logged and counted; EHLO then advertises SIZE
	// without a number, and MAIL FROM's SIZE is still checked.
	s.MaxMessageBytes = 0
	s.MaxRecipients = c.MaxRecipients
	s.EnableSMTPUTF8 = true
	s.ReadTimeout = time.Minute
	s.WriteTimeout = time.Minute
	s.AllowInsecureAuth = false
	l.srv = s
	return l
}

// Serve accepts connections on ln until Close, at most MaxSessions at once.
func (l *Listener) Serve(ln net.Listener) error {
	err := l.srv.Serve(newBoundedListener(ln, l.sessions, func() { l.metrics.refuse(RefusedBusy) }))
	if errors.Is(err, smtp.ErrServerClosed) {
		return nil
	}
	return err
}

// Shutdown stops accepting and waits for open sessions until ctx ends.
func (l *Listener) Shutdown(ctx context.Context) error { return l.srv.Shutdown(ctx) }

// NewSession implements smtp.Backend.
func (l *Listener) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &session{l: l}, nil
}

// session is one SMTP transaction at a time.
type session struct {
	l    *Listener
	from string
	to   []notify.ReplyAddress
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
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(io.LimitReader(r, s.l.maxBytes+1))
	if err != nil {
		return err
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
