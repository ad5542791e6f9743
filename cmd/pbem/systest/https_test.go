package systest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// acmeDomain is the name the HTTPS test gets a certificate for; Pebble's
// DNS server answers 127.0.0.1 for it.
const acmeDomain = "play.pbem.test"

// TestHTTPSWithACME runs `pbem serve` with PBEM_TLS_DOMAINS against Pebble on
// loopback, validating for real (tls-alpn-01 on the HTTPS port, http-01 on
// PBEM_HTTP_LISTEN), with certificates valid for 60 s (autocert renews a
// third of the lifetime before expiry, less a jitter of up to a tenth of
// that third: about 40 s after issue):
//   - the first HTTPS request gets a certificate issued under Pebble's root;
//   - a restart, at once, serves the cached certificate (same serial
//     number): the restart must come before the renewal is due, and under a
//     load of 24 a stop and start has taken most of 30 s (the test once
//     failed with certificates valid for 45 s and the restart after the
//     page checks);
//   - the page answers over it with Strict-Transport-Security;
//   - plain http redirects to https (301 for GET, 308 for POST);
//   - the certificate is renewed before it expires (a new serial number),
//     by the restarted process.
func TestHTTPSWithACME(t *testing.T) {
	start := systemTest(t)
	const validity = 60 * time.Second
	httpPort, httpsPort := freePort(t), freePort(t)
	peb := startPebble(t, httpPort, httpsPort, validity)
	_, dbURL := newDatabase(t)
	data := t.TempDir()
	srv := newServerOn(t, fmt.Sprintf("127.0.0.1:%d", httpsPort), "DATABASE_URL="+dbURL, "PBEM_DATA="+data,
		"PBEM_TLS_DOMAINS="+acmeDomain, fmt.Sprintf("PBEM_HTTP_LISTEN=127.0.0.1:%d", httpPort),
		"PBEM_ACME_DIRECTORY="+peb.Directory, "PBEM_ACME_CA_FILE="+peb.CAFile, "PBEM_ACME_EMAIL=admin@pbem.test")
	c := newDomainClient(peb.Roots, map[string]int{"443": httpsPort, "80": httpPort})
	https := "https://" + acmeDomain

	// The first handshake gets the certificate.
	first := c.waitCert(t, https+"/healthz", 90*time.Second, nil)
	if err := first.VerifyHostname(acmeDomain); err != nil {
		t.Fatal(err)
	}

	// A restart, at once, serves the cached certificate.
	srv.stop()
	srv.start()
	restarted := c.waitCert(t, https+"/healthz", 60*time.Second, nil)
	if restarted.SerialNumber.Cmp(first.SerialNumber) != 0 {
		t.Fatalf("after a restart: certificate %x, want the cached %x (issued %v ago; its renewal is due from %v after issue)",
			restarted.SerialNumber, first.SerialNumber, time.Since(first.NotBefore).Round(time.Second), validity*2/3-validity/30)
	}
	if files, _ := filepath.Glob(filepath.Join(data, "acme", "*")); len(files) < 2 {
		t.Errorf("ACME cache %s holds %v, want the account key and the certificate", filepath.Join(data, "acme"), files)
	}

	resp, body := c.get(t, https+"/")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "<html") {
		t.Fatalf("GET / over https: %d %.200s", resp.StatusCode, body)
	}
	if h := resp.Header.Get("Strict-Transport-Security"); h != "max-age=31536000" {
		t.Errorf("Strict-Transport-Security = %q", h)
	}

	// Plain http: redirects to the same path over https.
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		req, _ := http.NewRequest(method, fmt.Sprintf("http://%s/api/v1/games?x=1", acmeDomain), nil)
		resp, err := c.noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		want := map[string]int{http.MethodGet: http.StatusMovedPermanently, http.MethodPost: http.StatusPermanentRedirect}[method]
		loc := fmt.Sprintf("https://%s:%d/api/v1/games?x=1", acmeDomain, httpsPort)
		if resp.StatusCode != want || resp.Header.Get("Location") != loc {
			t.Errorf("%s over http: %d Location %q, want %d %q", method, resp.StatusCode, resp.Header.Get("Location"), want, loc)
		}
		if resp.Header.Get("Strict-Transport-Security") != "" {
			t.Error("Strict-Transport-Security over plain http")
		}
	}
	resp, _ = c.get(t, "http://"+acmeDomain+"/healthz")
	if resp.StatusCode != http.StatusOK || resp.TLS == nil {
		t.Errorf("GET http://…/healthz followed: %d, over TLS %v", resp.StatusCode, resp.TLS != nil)
	}

	// Renewal, a third of the lifetime before expiry.
	renewed := c.waitCert(t, https+"/healthz", validity+30*time.Second, first.SerialNumber)
	if !renewed.NotAfter.After(first.NotAfter) {
		t.Errorf("renewed certificate expires %v, the first %v", renewed.NotAfter, first.NotAfter)
	}
	t.Logf("certificate %x issued, reused after a restart, renewed as %x %v before the first expired; %v",
		first.SerialNumber, renewed.SerialNumber, first.NotAfter.Sub(renewed.NotBefore).Round(time.Second),
		time.Since(start).Round(time.Second))
}

// TestHTTPSOwnCertificate serves a certificate of one's own
// (PBEM_TLS_CERT, PBEM_TLS_KEY) and replaces its files while serve runs:
// the next connections get the new certificate.
func TestHTTPSOwnCertificate(t *testing.T) {
	systemTest(t)
	_, dbURL := newDatabase(t)
	dir := t.TempDir()
	names, ips := []string{acmeDomain}, []net.IP{net.IPv4(127, 0, 0, 1)}
	certFile, keyFile := writeCert(t, dir, "own", names, ips, time.Hour)
	httpsPort := freePort(t)
	newServerOn(t, fmt.Sprintf("127.0.0.1:%d", httpsPort), "DATABASE_URL="+dbURL,
		"PBEM_TLS_CERT="+certFile, "PBEM_TLS_KEY="+keyFile, "PBEM_HTTP_LISTEN=off")

	roots := x509.NewCertPool()
	addPEM(t, roots, certFile)
	c := newDomainClient(roots, map[string]int{"443": httpsPort})
	first := c.waitCert(t, "https://"+acmeDomain+"/healthz", 30*time.Second, nil)

	// Replace both files (as a renewal tool would: write aside, rename).
	newCert, newKey := writeCert(t, t.TempDir(), "own", names, ips, 2*time.Hour)
	addPEM(t, roots, newCert)
	c = newDomainClient(roots, map[string]int{"443": httpsPort})
	for _, f := range [][2]string{{newKey, keyFile}, {newCert, certFile}} {
		if err := os.Rename(f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	second := c.waitCert(t, "https://"+acmeDomain+"/healthz", 30*time.Second, first.SerialNumber)
	if !second.NotAfter.After(first.NotAfter) {
		t.Errorf("reloaded certificate expires %v, the first %v", second.NotAfter, first.NotAfter)
	}
}

// addPEM adds the certificates of a PEM file to pool.
func addPEM(t *testing.T, pool *x509.CertPool, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !pool.AppendCertsFromPEM(b) {
		t.Fatalf("%s: no certificate", file)
	}
}

// domainClient reaches acmeDomain on loopback: its connections to port
// 443 and 80 go to the test's ports, and it trusts only roots.
type domainClient struct {
	follow, noRedirect *http.Client
}

func newDomainClient(roots *x509.CertPool, ports map[string]int) *domainClient {
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		_, port, _ := net.SplitHostPort(addr)
		if p, ok := ports[port]; ok {
			port = fmt.Sprint(p)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, net.JoinHostPort("127.0.0.1", port))
	}
	tr := &http.Transport{DialContext: dial, TLSClientConfig: &tls.Config{RootCAs: roots}, DisableKeepAlives: true}
	return &domainClient{
		follow: &http.Client{Timeout: 60 * time.Second, Transport: tr},
		noRedirect: &http.Client{Timeout: 60 * time.Second, Transport: tr,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
}

// get sends GET url, following redirects, and returns the answer and body.
func (c *domainClient) get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	resp, err := c.follow.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// waitCert sends GET url on new connections until one answers 200 over a
// certificate whose serial number is not notSerial, within d, and returns
// that certificate.
func (c *domainClient) waitCert(t *testing.T, url string, d time.Duration, notSerial *big.Int) *x509.Certificate {
	t.Helper()
	deadline := time.Now().Add(d)
	var last error
	for time.Now().Before(deadline) {
		resp, err := c.follow.Get(url)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && resp.TLS != nil {
				leaf := resp.TLS.PeerCertificates[0]
				if notSerial == nil || leaf.SerialNumber.Cmp(notSerial) != 0 {
					return leaf
				}
				err = errors.New("still the certificate " + leaf.SerialNumber.Text(16))
			} else {
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
		}
		last = err
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("GET %s: no fitting answer within %v: %v", url, d, last)
	return nil
}
