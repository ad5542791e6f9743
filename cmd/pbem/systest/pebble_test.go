package systest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// pebbleVersion is the version of Pebble, Let's Encrypt's test ACME server,
// that the HTTPS test builds with go install.
const pebbleVersion = "v2.10.1"

// pebbleBinaries are pebble and pebble-challtestsrv, built once per test
// process.
var pebbleBinaries struct {
	once sync.Once
	dir  string
	err  error
}

// pebbleBin returns the directory holding pebble and pebble-challtestsrv.
func pebbleBin(t testing.TB) string {
	t.Helper()
	pebbleBinaries.once.Do(func() {
		dir, err := os.MkdirTemp("", "pbem-systest-pebble-")
		if err != nil {
			pebbleBinaries.err = err
			return
		}
		cmd := exec.Command("go", "install",
			"github.com/letsencrypt/pebble/v2/cmd/pebble@"+pebbleVersion,
			"github.com/letsencrypt/pebble/v2/cmd/pebble-challtestsrv@"+pebbleVersion)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			pebbleBinaries.err = fmt.Errorf("go install pebble: %v\n%s", err, out)
		}
		pebbleBinaries.dir = dir
	})
	if pebbleBinaries.err != nil {
		t.Fatal(pebbleBinaries.err)
	}
	return pebbleBinaries.dir
}

// pebble is a running Pebble with its DNS server (pebble-challtestsrv,
// answering 127.0.0.1 for every name), on loopback. Its validation
// authority really connects to the names it validates: to httpPort for
// http-01 and to tlsPort for tls-alpn-01.
type pebble struct {
	// Directory is the ACME directory URL.
	Directory string
	// CAFile is the root of Pebble's own HTTPS (PBEM_ACME_CA_FILE).
	CAFile string
	// Roots are the roots Pebble issues under.
	Roots *x509.CertPool
	log   *lockedBuffer
}

// startPebble starts Pebble issuing certificates valid for validity, and
// stops it when t ends.
func startPebble(t *testing.T, httpPort, tlsPort int, validity time.Duration) *pebble {
	t.Helper()
	bin := pebbleBin(t)
	dir := t.TempDir()
	caFile, keyFile := writeLoopbackCert(t, dir)
	listen := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	mgmt := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	dns := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	cfg := map[string]any{"pebble": map[string]any{
		"listenAddress": listen, "managementListenAddress": mgmt,
		"certificate": caFile, "privateKey": keyFile,
		"httpPort": httpPort, "tlsPort": tlsPort,
		"ocspResponderURL": "", "externalAccountBindingRequired": false,
		"profiles": map[string]any{"default": map[string]any{
			"description": "short-lived, for the renewal test", "validityPeriod": int(validity.Seconds())}},
	}}
	b, _ := json.Marshal(cfg)
	cfgFile := filepath.Join(dir, "pebble.json")
	if err := os.WriteFile(cfgFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	p := &pebble{Directory: "https://" + listen + "/dir", CAFile: caFile, log: &lockedBuffer{}}

	// Only the DNS server of pebble-challtestsrv: every name is 127.0.0.1.
	dnsSrv := exec.Command(filepath.Join(bin, "pebble-challtestsrv"), "-dnsserver", dns,
		"-management", fmt.Sprintf("127.0.0.1:%d", freePort(t)), "-http01", "", "-https01", "", "-tlsalpn01", "",
		"-doh", "", "-defaultIPv4", "127.0.0.1", "-defaultIPv6", "")
	startLogged(t, dnsSrv, p.log)
	// Real validation (no PEBBLE_VA_ALWAYS_VALID); no random sleeps before
	// it, no nonces refused at random, and no authorization reused, so that
	// a renewal validates again.
	srv := exec.Command(filepath.Join(bin, "pebble"), "-config", cfgFile, "-dnsserver", dns)
	srv.Env = append(os.Environ(), "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0", "PEBBLE_AUTHZREUSE=0")
	startLogged(t, srv, p.log)

	pool := x509.NewCertPool()
	caPEM, _ := os.ReadFile(caFile)
	pool.AppendCertsFromPEM(caPEM)
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := client.Get("https://" + mgmt + "/roots/0")
		if err == nil {
			root, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				p.Roots = x509.NewCertPool()
				if !p.Roots.AppendCertsFromPEM(root) {
					t.Fatalf("pebble root: not PEM: %s", root)
				}
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pebble did not answer within 60 s (%v):\n%s", err, tail(p.log.String(), 4000))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("pebble log (tail):\n%s", tail(p.log.String(), 6000))
		}
	})
	return p
}

// startLogged starts cmd with its output in log, and kills it when t ends.
func startLogged(t *testing.T, cmd *exec.Cmd, log io.Writer) {
	t.Helper()
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
}

// writeLoopbackCert writes a self-signed certificate for 127.0.0.1 and
// localhost, and its key, into dir, and returns their paths.
func writeLoopbackCert(t testing.TB, dir string) (certFile, keyFile string) {
	t.Helper()
	return writeCert(t, dir, "loopback", []string{"localhost"}, []net.IP{net.IPv4(127, 0, 0, 1)}, time.Hour)
}

// writeCert writes a self-signed certificate (a CA too, so that it can be
// trusted as a root) for names and ips, valid for d, into dir/name.pem and
// dir/name.key.
func writeCert(t testing.TB, dir, name string, names []string, ips []net.IP, d time.Duration) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(d),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true,
		DNSNames: names, IPAddresses: ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}
