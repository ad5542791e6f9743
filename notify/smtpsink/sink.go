// Package smtpsink is an SMTP server on loopback for tests (notify, api): it
// records every message, can refuse for a while (4xx), speaks STARTTLS or
// implicit TLS with a self-signed certificate, and can require a login.
package smtpsink

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options configures a Sink.
type Options struct {
	// TLS, if set, enables STARTTLS with this configuration.
	TLS *tls.Config
	// Implicit makes the listener speak TLS from the first byte (needs TLS).
	Implicit bool
	// Username and Password, if set, require AUTH PLAIN.
	Username, Password string
	// RejectRcpt, if set, is an address refused with 550 (no such user).
	RejectRcpt string
	// OnData, if set, is called when a message's data has been read and
	// before it is accepted, with the number of messages accepted so far
	// (tests look at the sender's state, or kill it, at that moment).
	OnData func(accepted int)
}

// Received is one message the sink accepted.
type Received struct {
	From string
	To   []string
	Data []byte
	// TLS reports whether the session was encrypted.
	TLS bool
}

// Sink is a running test SMTP server.
type Sink struct {
	Host string
	Port int

	opts   Options
	srv    *smtp.Server
	mu     sync.Mutex
	msgs   []Received
	refuse int
	cond   *sync.Cond
	// conns counts the connections opened; open holds those not closed.
	conns int
	open  map[*smtp.Conn]bool
	// drop is how many DATA commands still break their connection.
	drop int
}

// Start runs a sink on 127.0.0.1 and stops it when tb ends.
func Start(tb testing.TB, o Options) *Sink {
	tb.Helper()
	s := &Sink{opts: o}
	s.cond = sync.NewCond(&s.mu)
	s.open = map[*smtp.Conn]bool{}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.conns++
		s.open[c] = true
		s.mu.Unlock()
		return &session{s: s, c: c}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	srv.MaxMessageBytes = 1 << 20
	srv.TLSConfig = o.TLS
	var l net.Listener
	var err error
	if o.Implicit {
		l, err = tls.Listen("tcp", "127.0.0.1:0", o.TLS)
	} else {
		l, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		tb.Fatalf("smtpsink: listen: %v", err)
	}
	s.srv = srv
	s.Host = "127.0.0.1"
	s.Port = l.Addr().(*net.TCPAddr).Port
	go func() { _ = srv.Serve(l) }()
	tb.Cleanup(func() { _ = srv.Close() })
	return s
}

// Addr is host:port.
func (s *Sink) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// RefuseNext makes the next n MAIL FROM commands fail with 451.
func (s *Sink) RefuseNext(n int) {
	s.mu.Lock()
	s.refuse = n
	s.mu.Unlock()
}

// Connections is how many connections clients opened so far.
func (s *Sink) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// CloseConnections closes every open connection without a word, as a
// relay does with idle sessions or when it restarts.
func (s *Sink) CloseConnections() {
	s.mu.Lock()
	open := s.open
	s.open = map[*smtp.Conn]bool{}
	s.mu.Unlock()
	for c := range open {
		_ = c.Close()
	}
}

// BreakNextData makes the next n DATA commands fail as a broken
// connection does: the message is read, not accepted, and the connection
// is closed without a reply.
func (s *Sink) BreakNextData(n int) {
	s.mu.Lock()
	s.drop = n
	s.mu.Unlock()
}

// Messages returns a copy of what was received so far.
func (s *Sink) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.msgs...)
}

// Wait blocks until at least n messages arrived or d passed, and returns
// the messages.
func (s *Sink) Wait(n int, d time.Duration) []Received {
	deadline := time.Now().Add(d)
	t := time.AfterFunc(d, func() { s.mu.Lock(); s.cond.Broadcast(); s.mu.Unlock() })
	defer t.Stop()
	s.mu.Lock()
	for len(s.msgs) < n && time.Now().Before(deadline) {
		s.cond.Wait()
	}
	s.mu.Unlock()
	return s.Messages()
}

type session struct {
	s      *Sink
	c      *smtp.Conn
	authed bool
	from   string
	to     []string
}

var _ smtp.AuthSession = (*session)(nil)

func (x *session) AuthMechanisms() []string {
	if x.s.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (x *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != x.s.opts.Username || pass != x.s.opts.Password {
			return errors.New("invalid credentials")
		}
		x.authed = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if x.s.opts.Username != "" && !x.authed {
		return smtp.ErrAuthRequired
	}
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	if x.s.refuse > 0 {
		x.s.refuse--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if x.s.opts.RejectRcpt != "" && to == x.s.opts.RejectRcpt {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	_, isTLS := x.c.TLSConnectionState()
	x.s.mu.Lock()
	broken := x.s.drop > 0
	if broken {
		x.s.drop--
	}
	x.s.mu.Unlock()
	if broken {
		_ = x.c.Close()
		return errors.New("smtpsink: connection broken")
	}
	if x.s.opts.OnData != nil {
		x.s.opts.OnData(len(x.s.Messages()))
	}
	x.s.mu.Lock()
	x.s.msgs = append(x.s.msgs, Received{From: x.from, To: x.to, Data: b, TLS: isTLS})
	x.s.cond.Broadcast()
	x.s.mu.Unlock()
	return nil
}

func (x *session) Reset() { x.from, x.to = "", nil }
func (x *session) Logout() error {
	x.s.mu.Lock()
	delete(x.s.open, x.c)
	x.s.mu.Unlock()
	return nil
}

// SelfSigned makes a certificate for 127.0.0.1 and localhost. It returns
// the server's TLS configuration and a pool that trusts the certificate.
func SelfSigned(tb testing.TB) (*tls.Config, *x509.CertPool) {
	tb.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "pbem test smtp"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:         true, BasicConstraintsValid: true,
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, pool
}
