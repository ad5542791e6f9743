package notify

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	netmail "net/mail"
	"pbem/projections/outbox"
	"strings"
	"time"

	"github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"
)

// SMTPSender sends messages through an SMTP server with go-mail. It keeps
// its connections open between batches (see connPool) and may be used by
// several goroutines at once, each batch on a connection of its own.
type SMTPSender struct {
	cfg    SMTPConfig
	client *mail.Client
	conns  connPool
}

var _ Sender = (*SMTPSender)(nil)

// NewSMTPSender checks cfg and returns a sender. timeout bounds each
// connection's dial and commands (0: 30 seconds).
func NewSMTPSender(cfg SMTPConfig, timeout time.Duration) (*SMTPSender, error) {
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	tlsCfg := &tls.Config{ServerName: cfg.Host, MinVersion: tls.VersionTLS12}
	if cfg.TLSConfig != nil {
		tlsCfg = cfg.TLSConfig.Clone()
		if tlsCfg.ServerName == "" {
			tlsCfg.ServerName = cfg.Host
		}
	}
	opts := []mail.Option{
		mail.WithPort(cfg.Port),
		mail.WithTimeout(timeout),
		mail.WithTLSConfig(tlsCfg),
	}
	switch cfg.TLS {
	case TLSNone:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
	case TLSOpportunistic:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSOpportunistic))
	case TLSStartTLS:
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	case TLSImplicit:
		opts = append(opts, mail.WithSSL())
	default:
		return nil, fmt.Errorf("notify: smtp: unknown TLS mode %q", cfg.TLS)
	}
	if cfg.HELO != "" {
		opts = append(opts, mail.WithHELO(cfg.HELO))
	}
	if cfg.Username != "" {
		auth := mail.SMTPAuthAutoDiscover
		if cfg.Auth != "" {
			auth = mail.SMTPAuthType(strings.ToUpper(cfg.Auth))
		}
		opts = append(opts, mail.WithSMTPAuth(auth), mail.WithUsername(cfg.Username), mail.WithPassword(cfg.Password))
	}
	c, err := mail.NewClient(cfg.Host, opts...)
	if err != nil {
		return nil, fmt.Errorf("notify: smtp client: %w", err)
	}
	return &SMTPSender{cfg: cfg, client: c, conns: connPool{now: time.Now}}, nil
}

var _ StreamSender = (*SMTPSender)(nil)

// Send delivers msgs on one connection. A message the server refuses with
// a 5xx reply gets a *PermanentError; a dial, TLS or login failure is the
// error of every message.
func (s *SMTPSender) Send(ctx context.Context, msgs []*Message) []error {
	errs := make([]error, len(msgs))
	s.SendEach(ctx, msgs, func(i int, err error) bool { errs[i] = err; return true })
	return errs
}

// SendEach delivers msgs on one connection, reporting each outcome as soon
// as the server answered it (errors as Send's); it stops when report
// returns false. Once ctx ends, the messages not yet sent get ctx's error.
//
// The connection is one kept from an earlier batch when there is one
// (go-mail checks it with NOOP before each message; one that died while
// idle is replaced, nothing having been sent on it), else a new one; it is
// kept again afterwards unless it broke. A connection that breaks in the
// middle is replaced for the next message; a dial that fails is the error
// of every message left.
func (s *SMTPSender) SendEach(ctx context.Context, msgs []*Message, report func(i int, err error) bool) {
	if len(msgs) == 0 {
		return
	}
	built := make([]*mail.Msg, len(msgs))
	buildErrs := make([]error, len(msgs))
	for i, m := range msgs {
		gm, err := buildMsg(m)
		if err == nil && s.cfg.DKIM != nil {
			err = s.cfg.DKIM.signMsg(gm)
		}
		if err != nil {
			buildErrs[i] = &PermanentError{Err: err}
			continue
		}
		built[i] = gm
	}
	conn := s.conns.get()
	defer func() { s.conns.put(conn) }()
	var dialErr error
	for i, gm := range built {
		err := buildErrs[i]
		switch {
		case err != nil:
		case ctx.Err() != nil:
			err = ctx.Err()
		case dialErr != nil:
			err = dialErr
		default:
			conn, err = s.sendOne(ctx, conn, gm)
			var de *dialError
			if errors.As(err, &de) {
				dialErr = err
			}
		}
		if !report(i, err) {
			return
		}
	}
}

// dialError is a failure to open a connection (dial, TLS, login).
type dialError struct{ err error }

func (e *dialError) Error() string { return e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }

// sendOne sends gm on conn, opening a connection if conn is nil or died
// while idle. It returns the connection to use for the next message (nil
// when it broke) and gm's outcome.
func (s *SMTPSender) sendOne(ctx context.Context, conn *smtp.Client, gm *mail.Msg) (*smtp.Client, error) {
	for {
		fresh := conn == nil
		if fresh {
			c, err := s.client.DialToSMTPClientWithContext(ctx)
			if err != nil {
				return nil, &dialError{fmt.Errorf("notify: smtp %s: %w", s.cfg.Addr(), err)}
			}
			conn = c
		}
		err := s.client.SendWithSMTPClient(conn, gm)
		var se *mail.SendError
		switch {
		case err == nil:
			return conn, nil
		case errors.As(err, &se) && se.Reason == mail.ErrSMTPReset:
			// Accepted; only the RSET after it failed: the message is
			// sent, the connection is not trusted any more.
			_ = conn.Close()
			return nil, nil
		case errors.As(err, &se) && se.Reason == mail.ErrConnCheck && !fresh:
			// A kept connection the server closed while it was idle:
			// nothing was sent on it. Open a new one and send there.
			_ = conn.Close()
			conn = nil
			continue
		case !sessionGoesOn(err):
			_ = conn.Close()
			conn = nil
		}
		return conn, classify(err)
	}
}

// sessionGoesOn reports whether the connection is still good after a send
// failed with err: the server answered with a reply code (other than 421,
// "closing"), so the session is in a known state.
func sessionGoesOn(err error) bool {
	var se *mail.SendError
	if !errors.As(err, &se) {
		return false
	}
	code := se.ErrorCode()
	return code >= 400 && code < 600 && code != 421
}

// Close quits the kept connections. A sender may still be used after it:
// its connections are then closed after each batch.
func (s *SMTPSender) Close() { s.conns.close() }

// classify wraps a 5xx SMTP reply as permanent.
func classify(err error) error {
	var se *mail.SendError
	if errors.As(err, &se) && !se.IsTemp() && se.ErrorCode() >= 500 && se.ErrorCode() < 600 {
		return &PermanentError{Err: err}
	}
	return err
}

// recipient is the To address of m: its bare address (checked) and display
// name, which net/mail's Address encodes for the header (quoted with
// escapes, or as an RFC 2047 encoded word for other scripts, emoji and
// characters such as quotes and angle brackets), never concatenated into
// the header by hand.
func recipient(m *Message) (*netmail.Address, error) {
	a, err := netmail.ParseAddress(m.To)
	if err != nil || a.Address != m.To || a.Name != "" {
		return nil, fmt.Errorf("notify: to %q: not a plain address", m.To)
	}
	a.Name = m.ToName
	return a, nil
}

// buildMsg turns a Message into a go-mail message: multipart/alternative
// with the text part first and the HTML part second.
func buildMsg(m *Message) (*mail.Msg, error) {
	gm := mail.NewMsg(mail.WithNoDefaultUserAgent())
	if err := gm.From(m.From); err != nil {
		return nil, fmt.Errorf("notify: from %q: %w", m.From, err)
	}
	to, err := recipient(m)
	if err != nil {
		return nil, err
	}
	gm.ToMailAddress(to)
	if m.ReplyTo != "" {
		if err := gm.ReplyTo(m.ReplyTo); err != nil {
			return nil, fmt.Errorf("notify: reply-to %q: %w", m.ReplyTo, err)
		}
		if err := gm.EnvelopeFrom(m.ReplyTo); err != nil {
			return nil, fmt.Errorf("notify: envelope sender %q: %w", m.ReplyTo, err)
		}
	}
	if m.InReplyTo != "" {
		gm.SetGenHeader(mail.HeaderInReplyTo, m.InReplyTo)
	}
	if m.References != "" {
		gm.SetGenHeader(mail.HeaderReferences, m.References)
	}
	gm.Subject(encodeSubject(m.Subject))
	gm.SetMessageIDWithValue(m.MessageID)
	gm.SetDate()
	if m.Bulk {
		gm.SetGenHeader(mail.HeaderPrecedence, "bulk")
	}
	// RFC 3834: automatic mail (an answer to a reply is "auto-replied");
	// vacation responders must not answer it, nor Exchange's.
	auto := "auto-generated"
	if m.Kind == outbox.Reply {
		auto = "auto-replied"
	}
	gm.SetGenHeader(mail.Header("Auto-Submitted"), auto)
	gm.SetGenHeader(mail.HeaderXAutoResponseSuppress, "All")
	if m.Language != "" {
		gm.SetGenHeader(mail.HeaderContentLang, m.Language)
	}
	if m.Unsubscribe != "" {
		if strings.HasPrefix(m.Unsubscribe, "https://") {
			if err := gm.SetListUnsubscribeOneClick(m.Unsubscribe); err != nil {
				return nil, fmt.Errorf("notify: unsubscribe link: %w", err)
			}
		} else {
			// RFC 8058 one-click needs https; a plain http dev server
			// still gets the List-Unsubscribe link.
			gm.SetListUnsubscribe(m.Unsubscribe)
		}
	}
	gm.SetBodyString(mail.TypeTextPlain, m.Text)
	gm.AddAlternativeString(mail.TypeTextHTML, m.HTML)
	return gm, nil
}
