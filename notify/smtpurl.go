package notify

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// TLSMode is how an SMTP connection is encrypted.
type TLSMode string

// TLS modes, chosen with PBEM_SMTP_URL's scheme and its tls parameter.
const (
	// TLSNone sends in clear text (a local relay on loopback).
	TLSNone TLSMode = "none"
	// TLSOpportunistic uses STARTTLS when the server offers it.
	TLSOpportunistic TLSMode = "opportunistic"
	// TLSStartTLS requires STARTTLS (port 587, the usual submission setup).
	TLSStartTLS TLSMode = "starttls"
	// TLSImplicit speaks TLS from the first byte (smtps://, port 465).
	TLSImplicit TLSMode = "implicit"
)

// SMTPConfig is a parsed PBEM_SMTP_URL.
type SMTPConfig struct {
	Host     string
	Port     int
	Username string
	Password string
	TLS      TLSMode
	// Auth is the SASL mechanism ("plain", "login", "cram-md5",
	// "scram-sha-256"...); empty picks the strongest the server offers
	// when a username is given.
	Auth string
	// HELO is the name sent in EHLO (PBEM_SMTP_HELO, default the public
	// URL's host; not part of the URL); empty: the machine's hostname.
	HELO string
	// TLSConfig, if set, is used for STARTTLS and implicit TLS instead of
	// the system's roots (tests use it to trust a self-signed certificate).
	TLSConfig *tls.Config
	// DKIM, if set, signs every message sent (PBEM_DKIM_KEY; not part of
	// the URL).
	DKIM *DKIM
}

// ParseSMTPURL parses an SMTP URL:
//
//	smtp://[user:pass@]host[:port][?tls=starttls|required|opportunistic|none][&auth=plain]
//	smtps://[user:pass@]host[:port]        implicit TLS
//
// Defaults: smtps:// uses port 465; smtp:// uses port 587 and requires
// STARTTLS when credentials are given (so a password never crosses the
// network in clear), else uses STARTTLS when offered. tls=required is a
// synonym of starttls; tls=implicit on smtp:// is the same as smtps://.
// User and password are URL-decoded (write @ as %40).
func ParseSMTPURL(raw string) (SMTPConfig, error) {
	var c SMTPConfig
	u, err := url.Parse(raw)
	if err != nil {
		return c, fmt.Errorf("notify: PBEM_SMTP_URL: %v", redactErr(err, raw))
	}
	switch u.Scheme {
	case "smtp":
	case "smtps":
		c.TLS = TLSImplicit
	default:
		return c, fmt.Errorf("notify: PBEM_SMTP_URL: scheme %q, want smtp or smtps", u.Scheme)
	}
	c.Host = u.Hostname()
	if c.Host == "" {
		return c, fmt.Errorf("notify: PBEM_SMTP_URL: no host")
	}
	if u.User != nil {
		c.Username = u.User.Username()
		c.Password, _ = u.User.Password()
	}
	q := u.Query()
	switch t := strings.ToLower(q.Get("tls")); t {
	case "":
	case "none", "off", "plain":
		c.TLS = TLSNone
	case "opportunistic":
		c.TLS = TLSOpportunistic
	case "starttls", "required":
		c.TLS = TLSStartTLS
	case "implicit", "tls", "ssl":
		c.TLS = TLSImplicit
	default:
		return c, fmt.Errorf("notify: PBEM_SMTP_URL: tls=%q, want starttls, required, opportunistic, none or implicit", t)
	}
	if u.Scheme == "smtps" && c.TLS != TLSImplicit {
		return c, fmt.Errorf("notify: PBEM_SMTP_URL: smtps:// is implicit TLS; use smtp:// with tls=%s", c.TLS)
	}
	if c.TLS == "" {
		c.TLS = TLSOpportunistic
		if c.Username != "" {
			c.TLS = TLSStartTLS
		}
	}
	c.Auth = strings.ToLower(q.Get("auth"))
	if q.Has("helo") {
		return c, fmt.Errorf("notify: PBEM_SMTP_URL: the helo parameter is gone; set PBEM_SMTP_HELO")
	}
	if p := u.Port(); p != "" {
		c.Port, err = strconv.Atoi(p)
		if err != nil || c.Port < 1 || c.Port > 65535 {
			return c, fmt.Errorf("notify: PBEM_SMTP_URL: bad port %q", p)
		}
	} else if c.TLS == TLSImplicit {
		c.Port = 465
	} else {
		c.Port = 587
	}
	return c, nil
}

// Addr is host:port.
func (c SMTPConfig) Addr() string { return net.JoinHostPort(c.Host, strconv.Itoa(c.Port)) }

// redactErr keeps a password in the URL out of error messages.
func redactErr(err error, raw string) string {
	msg := err.Error()
	if u, perr := url.Parse(raw); perr == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			msg = strings.ReplaceAll(msg, p, "xxxxx")
		}
	}
	if i := strings.Index(raw, "@"); i > 0 {
		msg = strings.ReplaceAll(msg, raw[:i], "smtp://(redacted)")
	}
	return msg
}
