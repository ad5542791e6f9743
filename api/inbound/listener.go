package inbound

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"time"

	"github.com/emersion/go-smtp"

	"pbem/notify"
)

// ListenerConfig configures the SMTP listener.
type ListenerConfig struct {
	// Addr is PBEM_INBOUND_LISTEN, e.g. ":2525".
	Addr string
	// Hostname is the name the listener greets with.
	Hostname string
	// MaxBytes is the largest message accepted (PBEM_INBOUND_MAX_BYTES;
	// default DefaultMaxBytes): a bigger one is refused with 552 while it
	// is sent, so memory stays bounded whatever arrives.
	MaxBytes int64
	// MaxRecipients bounds the recipients of one message (default 10).
	MaxRecipients int
	Logger        *slog.Logger
}

// DefaultMaxBytes is ListenerConfig.MaxBytes' default: 2 MiB, plenty for a
// reply with its quoted HTML.
const DefaultMaxBytes = 2 << 20

// Listener is the inbound SMTP server: it accepts mail for reply addresses
// only (550 for any other recipient, forged or revoked ones included) and
// hands each message to the Processor.
type Listener struct {
	srv *smtp.Server
	p   *Processor
	log *slog.Logger
}

// NewListener returns a listener for p. Serve starts it.
func NewListener(p *Processor, c ListenerConfig) *Listener {
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MaxRecipients <= 0 {
		c.MaxRecipients = 10
	}
	if c.Hostname == "" {
		c.Hostname = p.Domain()
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	l := &Listener{p: p, log: c.Logger}
	s := smtp.NewServer(l)
	s.Addr = c.Addr
	s.Domain = c.Hostname
	s.MaxMessageBytes = c.MaxBytes
	s.MaxRecipients = c.MaxRecipients
	s.ReadTimeout = time.Minute
	s.WriteTimeout = time.Minute
	s.AllowInsecureAuth = false
	l.srv = s
	return l
}

// Serve accepts connections on ln until Close.
func (l *Listener) Serve(ln net.Listener) error {
	err := l.srv.Serve(ln)
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

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from, s.to = from, nil
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a, err := s.l.p.Check(ctx, to)
	var refused *RefusedError
	switch {
	case errors.As(err, &refused):
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: refused.Reason}
	case err != nil:
		s.l.log.Error("inbound: check recipient", "err", err)
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	s.to = append(s.to, a)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r) // bounded by MaxMessageBytes (552 beyond)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, a := range s.to {
		out, err := s.l.p.Handle(ctx, s.from, a, raw)
		if err != nil {
			s.l.log.Error("inbound: handle", "game", a.GameID, "seat", a.Seat, "err", err)
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
		}
		s.l.log.Info("inbound: reply", "game", a.GameID, "seat", a.Seat, "outcome", string(out))
	}
	return nil
}

func (s *session) Reset()        { s.from, s.to = "", nil }
func (s *session) Logout() error { return nil }
