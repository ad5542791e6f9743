package notify_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"pbem/notify"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
)

// dkimKey is a test key: its PEM file and the TXT record a domain would
// publish for it, written here from the public key (not by notify).
type dkimKey struct {
	name, path, txt string
}

func testKeys(t *testing.T) []dkimKey {
	t.Helper()
	dir := t.TempDir()
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name+".pem")
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	spki, err := x509.MarshalPKIXPublicKey(&rk.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	epub, epriv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p8, err := x509.MarshalPKCS8PrivateKey(epriv)
	if err != nil {
		t.Fatal(err)
	}
	return []dkimKey{
		{"rsa-pkcs1", write("rsa", "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rk)),
			"v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(spki)},
		{"ed25519-pkcs8", write("ed25519", "PRIVATE KEY", p8),
			"v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(epub)},
	}
}

// TestDKIMSignsEveryKindOfEmail sends one email of every kind, in every
// language, through a real SMTP conversation with each key type, and
// verifies each received message with go-msgauth's verifier against the
// key's DNS record. A message altered after signing fails.
func TestDKIMSignsEveryKindOfEmail(t *testing.T) {
	t.Parallel()
	for _, k := range testKeys(t) {
		t.Run(k.name, func(t *testing.T) {
			d, err := notify.LoadDKIM(k.path, "pbem2026", "pbem.example.org")
			if err != nil {
				t.Fatal(err)
			}
			if d.DNSName() != "pbem2026._domainkey.pbem.example.org" || d.DNSRecord() != k.txt {
				t.Errorf("DNS record %s = %q, want %q", d.DNSName(), d.DNSRecord(), k.txt)
			}
			sink := smtpsink.Start(t, smtpsink.Options{})
			cfg, err := notify.ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
			if err != nil {
				t.Fatal(err)
			}
			cfg.DKIM = d
			r := renderer(t)
			var msgs []*notify.Message
			for _, kind := range outbox.Kinds() {
				for _, lang := range []string{"en", "fr", "it"} {
					msgs = append(msgs, message(t, r, int64(len(msgs)+1), kind, lang))
				}
			}
			send(t, cfg, msgs...)
			got := sink.Wait(len(msgs), 10*time.Second)
			if len(got) != len(msgs) {
				t.Fatalf("received %d messages, want %d", len(got), len(msgs))
			}
			lookups := 0
			opts := &dkim.VerifyOptions{LookupTXT: func(name string) ([]string, error) {
				lookups++
				if name != "pbem2026._domainkey.pbem.example.org" {
					t.Errorf("key looked up at %s", name)
				}
				return []string{k.txt}, nil
			}}
			for i, rc := range got {
				vs, err := dkim.VerifyWithOptions(bytes.NewReader(rc.Data), opts)
				if err != nil || len(vs) != 1 {
					t.Fatalf("%s: %v, %d signatures", msgs[i].Kind, err, len(vs))
				}
				v := vs[0]
				if v.Err != nil || v.Domain != "pbem.example.org" {
					t.Errorf("%s (%s): signature of %s: %v", msgs[i].Kind, msgs[i].Language, v.Domain, v.Err)
				}
				for _, h := range []string{"from", "subject", "list-unsubscribe", "list-unsubscribe-post", "message-id", "reply-to"} {
					if !slices.Contains(lowered(v.HeaderKeys), h) {
						t.Errorf("%s: %s is not signed (h=%v)", msgs[i].Kind, h, v.HeaderKeys)
					}
				}
			}
			if lookups != len(msgs) {
				t.Errorf("%d key lookups for %d messages", lookups, len(msgs))
			}
			tampered := bytes.Replace(got[0].Data, []byte("\r\n\r\n"), []byte("\r\n\r\nP.S. added on the way\r\n"), 1)
			if vs, err := dkim.VerifyWithOptions(bytes.NewReader(tampered), opts); err != nil || len(vs) != 1 || vs[0].Err == nil {
				t.Errorf("a message altered after signing verifies: %v %+v", err, vs)
			}
			// A Reply-To added on the way (the answers would go elsewhere).
			redirected := append([]byte("Reply-To: <g-0-x-secret@evil.example>\r\n"), got[0].Data...)
			if vs, err := dkim.VerifyWithOptions(bytes.NewReader(redirected), opts); err != nil || len(vs) != 1 || vs[0].Err == nil {
				t.Errorf("a message given a Reply-To after signing verifies: %v %+v", err, vs)
			}
		})
	}
}

func lowered(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

func TestLoadDKIMRefusesBadKeys(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, err := x509.MarshalPKCS8PrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"ec.pem":   pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER}),
		"cert.pem": pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1, 2, 3}}),
		"text.pem": []byte("not a key"),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"ec.pem", "cert.pem", "text.pem", "missing.pem"} {
		if _, err := notify.LoadDKIM(filepath.Join(dir, name), "s", "example.org"); err == nil {
			t.Errorf("LoadDKIM(%s) accepted it", name)
		}
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	for _, c := range []struct{ domain, selector string }{{"", "s"}, {"example.org", " "}} {
		if _, err := notify.NewDKIM(c.domain, c.selector, priv); err == nil {
			t.Errorf("NewDKIM(%q, %q) accepted it", c.domain, c.selector)
		}
	}
}

func TestDKIMAlignment(t *testing.T) {
	t.Parallel()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	d, err := notify.NewDKIM("Example.org.", "s", crypto.Signer(priv))
	if err != nil {
		t.Fatal(err)
	}
	for from, want := range map[string]bool{
		"pbem@example.org":               true,
		"Games <games@mail.example.org>": true,
		"pbem@example.com":               false,
		"pbem@notexample.org":            false,
		"not an address":                 false,
	} {
		if got := d.AlignedWith(from); got != want {
			t.Errorf("AlignedWith(%q) = %v, want %v", from, got, want)
		}
	}
}

// TestDKIMZoneRecordSplitsStrings: a 2048-bit RSA key's record is longer
// than one TXT string may be; the zone-file text splits it into strings
// of at most 255 characters that join into the record.
func TestDKIMZoneRecordSplitsStrings(t *testing.T) {
	t.Parallel()
	for _, k := range testKeys(t) {
		d, err := notify.LoadDKIM(k.path, "pbem1", "games.example.org")
		if err != nil {
			t.Fatal(err)
		}
		z := d.ZoneRecord()
		head, rest, ok := strings.Cut(z, " IN TXT ")
		if !ok || head != "pbem1._domainkey.games.example.org." {
			t.Fatalf("%s: %q", k.name, z)
		}
		parts := regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(rest, -1)
		joined := ""
		for _, p := range parts {
			if len(p[1]) > 255 || p[1] == "" {
				t.Errorf("%s: a string of %d characters", k.name, len(p[1]))
			}
			joined += p[1]
		}
		if joined != d.DNSRecord() || joined != k.txt {
			t.Errorf("%s: the strings join into %q, want %q", k.name, joined, k.txt)
		}
		if want := (len(k.txt) + 254) / 255; len(parts) != want {
			t.Errorf("%s: %d strings for %d characters, want %d", k.name, len(parts), len(k.txt), want)
		}
	}
}
