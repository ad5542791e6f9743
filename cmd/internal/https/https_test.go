package https

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestLoad checks the environment's readings and the refusals of half or
// contradictory configurations.
func TestLoad(t *testing.T) {
	for _, tc := range []struct {
		env     map[string]string
		domains string // joined with ","
		enabled bool
		err     string
	}{
		{env: map[string]string{}, enabled: false},
		{env: map[string]string{"PBEM_TLS_DOMAINS": " Play.Example.org, www.example.org ,"}, domains: "play.example.org,www.example.org", enabled: true},
		{env: map[string]string{"PBEM_TLS_CERT": "c.pem", "PBEM_TLS_KEY": "k.pem"}, enabled: true},
		{env: map[string]string{"PBEM_TLS_CERT": "c.pem"}, err: "go together"},
		{env: map[string]string{"PBEM_TLS_DOMAINS": "a.example", "PBEM_TLS_CERT": "c", "PBEM_TLS_KEY": "k"}, err: "not both"},
		{env: map[string]string{"PBEM_ACME_EMAIL": "a@b.c"}, err: "need PBEM_TLS_DOMAINS"},
		{env: map[string]string{"PBEM_TLS_DOMAINS": "https://play.example.org"}, err: "not a domain name"},
		{env: map[string]string{"PBEM_TLS_DOMAINS": "localhost"}, err: "not a domain name"},
	} {
		c, err := Load(Settings{Domains: tc.env["PBEM_TLS_DOMAINS"], Directory: tc.env["PBEM_ACME_DIRECTORY"], Email: tc.env["PBEM_ACME_EMAIL"],
			CAFile: tc.env["PBEM_ACME_CA_FILE"], CertFile: tc.env["PBEM_TLS_CERT"], KeyFile: tc.env["PBEM_TLS_KEY"]}, "/var/lib/pbem")
		if err == nil && c.Enabled() != (Settings{Domains: tc.env["PBEM_TLS_DOMAINS"], CertFile: tc.env["PBEM_TLS_CERT"]}).Wanted() {
			t.Errorf("%v: Wanted and Enabled disagree", tc.env)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: error %v, want %q", tc.env, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.env, err)
			continue
		}
		if got := strings.Join(c.Domains, ","); got != tc.domains || c.Enabled() != tc.enabled {
			t.Errorf("%v: domains %q enabled %v, want %q %v", tc.env, got, c.Enabled(), tc.domains, tc.enabled)
		}
		if c.Directory != LetsEncrypt || c.CacheDir != "/var/lib/pbem/acme" {
			t.Errorf("%v: directory %q cache %q", tc.env, c.Directory, c.CacheDir)
		}
	}
}

// TestRedirect checks the plain-HTTP redirects: same host and path, the
// HTTPS port unless 443, 301 for GET and 308 for the rest, 400 for a host
// that cannot be one.
func TestRedirect(t *testing.T) {
	for _, tc := range []struct {
		public, method, host, target string
		code                         int
		location                     string
	}{
		{"https://play.example.org", "GET", "play.example.org", "/games/x?a=1", 301, "https://play.example.org/games/x?a=1"},
		{"https://play.example.org/", "HEAD", "play.example.org:80", "/", 301, "https://play.example.org/"},
		{"https://play.example.org:8443", "POST", "play.example.org", "/api/v1/games", 308, "https://play.example.org:8443/api/v1/games"},
		{"https://[::1]", "GET", "[::1]:80", "/", 301, "https://[::1]/"},
		// Issue #44: the request's Host is never where the redirect goes.
		{"https://play.example.org", "GET", "evil.example", "/signin", 301, "https://play.example.org/signin"},
		{"https://play.example.org", "GET", "evil.example@x", "/", 301, "https://play.example.org/"},
		{"https://play.example.org", "POST", "evil.example:443", "/x", 308, "https://play.example.org/x"},
	} {
		h, err := redirectHandler(tc.public)
		if err != nil {
			t.Fatalf("redirectHandler(%q): %v", tc.public, err)
		}
		req := httptest.NewRequest(tc.method, "http://placeholder"+tc.target, nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.code || rec.Header().Get("Location") != tc.location {
			t.Errorf("%s %s%s (public URL %s): %d %q, want %d %q", tc.method, tc.host, tc.target, tc.public,
				rec.Code, rec.Header().Get("Location"), tc.code, tc.location)
		}
	}
	for _, bad := range []string{"", "http://play.example.org", "https://", "https://u:p@play.example.org", "play.example.org"} {
		if _, err := redirectHandler(bad); err == nil || !strings.Contains(err.Error(), "PBEM_PUBLIC_URL") {
			t.Errorf("redirectHandler(%q): %v, want a refusal naming PBEM_PUBLIC_URL", bad, err)
		}
	}
}

// TestTLS12OffersAEADOnly: the TLS configuration offers TLS 1.2 with AEAD
// suites only; a client that offers only CBC suites gets no handshake, one
// that offers AES-GCM does.
func TestTLS12OffersAEADOnly(t *testing.T) {
	c := Config{Domains: []string{"play.example.org"}, Directory: LetsEncrypt, CacheDir: t.TempDir()}
	setup, err := c.Setup(slog.New(slog.NewTextHandler(io.Discard, nil)), "https://play.example.org")
	if err != nil {
		t.Fatal(err)
	}
	if setup.TLS.MinVersion != tls.VersionTLS12 || len(setup.TLS.CipherSuites) == 0 {
		t.Fatalf("MinVersion %x, suites %v", setup.TLS.MinVersion, setup.TLS.CipherSuites)
	}
	for _, id := range setup.TLS.CipherSuites {
		name := tls.CipherSuiteName(id)
		if !strings.Contains(name, "_GCM_") && !strings.Contains(name, "CHACHA20_POLY1305") {
			t.Errorf("TLS 1.2 offers %s, not an AEAD suite", name)
		}
	}
	// A real handshake with a certificate of our own.
	cert := selfSigned(t)
	srvCfg := &tls.Config{MinVersion: tls.VersionTLS12, CipherSuites: AEADSuites, Certificates: []tls.Certificate{cert}}
	handshake := func(suites []uint16) error {
		a, b := net.Pipe()
		defer a.Close()
		defer b.Close()
		go func() { _ = tls.Server(a, srvCfg).Handshake() }()
		return tls.Client(b, &tls.Config{InsecureSkipVerify: true, MaxVersion: tls.VersionTLS12, CipherSuites: suites}).Handshake()
	}
	if err := handshake([]uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA, tls.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA}); err == nil {
		t.Error("a TLS 1.2 client offering only CBC-SHA1 suites got a handshake")
	}
	if err := handshake([]uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}); err != nil {
		t.Errorf("a TLS 1.2 client offering AES-GCM: %v", err)
	}
}

// selfSigned is an ECDSA certificate for play.example.org.
func selfSigned(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "play.example.org"},
		DNSNames: []string{"play.example.org"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
