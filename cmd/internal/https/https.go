// Package https gives pbem serve its TLS: certificates from an ACME
// certificate authority (Let's Encrypt by default), got and renewed by
// golang.org/x/crypto/acme/autocert and cached in the data folder, or a
// certificate and key of one's own, read again when their files change.
//
// It builds the two pieces serve needs: the tls.Config of the HTTPS
// listener, and the handler of the plain-HTTP listener, which answers
// ACME's http-01 challenges and sends everything else to https.
package https

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// Settings are the TLS variables as the environment gives them (pbem's
// configuration reads them; Load checks them).
type Settings struct {
	Domains   string // PBEM_TLS_DOMAINS, comma-separated
	Directory string // PBEM_ACME_DIRECTORY
	Email     string // PBEM_ACME_EMAIL
	CAFile    string // PBEM_ACME_CA_FILE
	CertFile  string // PBEM_TLS_CERT
	KeyFile   string // PBEM_TLS_KEY
}

// Wanted reports whether s asks for HTTPS (ACME domains or a certificate
// of one's own), before Load checks it: a valid s is Wanted exactly when
// its Config is Enabled.
func (s Settings) Wanted() bool {
	return len(s.domains()) > 0 || strings.TrimSpace(s.CertFile) != ""
}

// domains are the names of PBEM_TLS_DOMAINS, trimmed and in lower case.
func (s Settings) domains() []string {
	var out []string
	for _, d := range strings.Split(s.Domains, ",") {
		if d = strings.ToLower(strings.TrimSpace(d)); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// Config is the TLS configuration, from the environment's Settings (Load).
type Config struct {
	// Domains (PBEM_TLS_DOMAINS, comma-separated) are the names ACME
	// certificates are got for; none: no ACME.
	Domains []string
	// Directory (PBEM_ACME_DIRECTORY) is the ACME directory URL; default
	// Let's Encrypt's production directory.
	Directory string
	// Email (PBEM_ACME_EMAIL) is the contact address of the ACME account
	// (optional: the CA writes to it about expiring certificates and
	// incidents).
	Email string
	// CAFile (PBEM_ACME_CA_FILE) is a PEM file of roots to trust for the
	// directory's HTTPS, instead of the system's (tests, private CAs).
	CAFile string
	// CacheDir is where the account key and certificates are kept:
	// PBEM_DATA/acme.
	CacheDir string
	// CertFile and KeyFile (PBEM_TLS_CERT, PBEM_TLS_KEY) are a certificate
	// chain and its key in PEM, used instead of ACME.
	CertFile, KeyFile string
}

// LetsEncrypt is the default ACME directory.
const LetsEncrypt = autocert.DefaultACMEDirectory

// Load checks s and returns the configuration; dataDir is PBEM_DATA. It
// refuses a half or contradictory configuration.
func Load(s Settings, dataDir string) (Config, error) {
	c := Config{
		Directory: strings.TrimSpace(s.Directory),
		Email:     strings.TrimSpace(s.Email),
		CAFile:    strings.TrimSpace(s.CAFile),
		CacheDir:  filepath.Join(dataDir, "acme"),
		CertFile:  strings.TrimSpace(s.CertFile),
		KeyFile:   strings.TrimSpace(s.KeyFile),
	}
	for _, d := range s.domains() {
		if strings.ContainsAny(d, ":/ ") || !strings.Contains(d, ".") {
			return Config{}, fmt.Errorf("PBEM_TLS_DOMAINS: %q is not a domain name", d)
		}
		c.Domains = append(c.Domains, d)
	}
	if (c.CertFile == "") != (c.KeyFile == "") {
		return Config{}, errors.New("PBEM_TLS_CERT and PBEM_TLS_KEY go together: set both or neither")
	}
	if c.CertFile != "" && len(c.Domains) > 0 {
		return Config{}, errors.New("set PBEM_TLS_DOMAINS (certificates from ACME) or PBEM_TLS_CERT and PBEM_TLS_KEY (your own), not both")
	}
	if len(c.Domains) == 0 && (c.Directory != "" || c.Email != "" || c.CAFile != "") {
		return Config{}, errors.New("PBEM_ACME_DIRECTORY, PBEM_ACME_EMAIL and PBEM_ACME_CA_FILE need PBEM_TLS_DOMAINS")
	}
	if c.Directory == "" {
		c.Directory = LetsEncrypt
	}
	return c, nil
}

// Enabled reports whether serve speaks HTTPS.
func (c Config) Enabled() bool { return len(c.Domains) > 0 || c.CertFile != "" }

// Setup is what serve runs with TLS on.
type Setup struct {
	// TLS configures the HTTPS listener.
	TLS *tls.Config
	// HTTP is the plain-HTTP listener's handler: ACME http-01 challenges,
	// and a permanent redirect to https for everything else.
	HTTP http.Handler
}

// Setup builds the TLS configuration and the plain-HTTP handler.
// publicURL is PBEM_PUBLIC_URL: the redirects go to its host (and port),
// whatever Host the request names. Errors: a public URL that is not an
// absolute https URL.
func (c Config) Setup(log *slog.Logger, publicURL string) (*Setup, error) {
	redirect, err := redirectHandler(publicURL)
	if err != nil {
		return nil, err
	}
	if c.CertFile != "" {
		r, err := newReloader(c.CertFile, c.KeyFile, log)
		if err != nil {
			return nil, err
		}
		return &Setup{TLS: &tls.Config{MinVersion: tls.VersionTLS12, CipherSuites: AEADSuites, GetCertificate: r.getCertificate}, HTTP: redirect}, nil
	}
	client := &acme.Client{DirectoryURL: c.Directory}
	if c.CAFile != "" {
		pem, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, fmt.Errorf("PBEM_ACME_CA_FILE: %w", err)
		}
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("PBEM_ACME_CA_FILE %s: no PEM certificate in it", c.CAFile)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: roots}
		client.HTTPClient = &http.Client{Transport: tr}
	}
	if err := os.MkdirAll(c.CacheDir, 0o700); err != nil {
		return nil, fmt.Errorf("ACME cache: %w", err)
	}
	m := &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      autocert.DirCache(c.CacheDir),
		HostPolicy: autocert.HostWhitelist(c.Domains...),
		Email:      c.Email,
		Client:     client,
	}
	cfg := m.TLSConfig()
	cfg.MinVersion = tls.VersionTLS12
	cfg.CipherSuites = AEADSuites
	getCert := cfg.GetCertificate
	cfg.GetCertificate = func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		cert, err := getCert(hello)
		if err != nil {
			log.Warn("tls certificate", "server_name", hello.ServerName, "err", err)
		}
		return cert, err
	}
	return &Setup{TLS: cfg, HTTP: m.HTTPHandler(redirect)}, nil
}

// AEADSuites are the TLS 1.2 cipher suites offered: ECDHE with AES-GCM or
// ChaCha20-Poly1305 only, none of the CBC (SHA-1, SHA-256) suites Go
// would offer by default. TLS 1.3's suites are all AEAD and not
// configurable.
var AEADSuites = []uint16{
	tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
	tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, tls.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
	tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, tls.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
}

// redirectHandler sends a request to the same path over https at
// publicURL's host: 301 for GET and HEAD, 308 (same method and body) for
// the others. The request's Host is never used, so that the plain port
// cannot be made to redirect to another site. Errors: publicURL is not an
// absolute https URL.
func redirectHandler(publicURL string) (http.Handler, error) {
	u, err := url.Parse(publicURL)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("PBEM_PUBLIC_URL=%q: with HTTPS, give the https URL the players use, like https://play.example.org", publicURL)
	}
	base := "https://" + u.Host
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code := http.StatusPermanentRedirect
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			code = http.StatusMovedPermanently
		}
		http.Redirect(w, r, base+r.URL.RequestURI(), code)
	}), nil
}
