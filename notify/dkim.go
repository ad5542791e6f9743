package notify

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"net/mail"
	"os"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
	gomail "github.com/wneessen/go-mail"
)

// dkimHeaders are the header fields a DKIM signature covers (RFC 6376
// section 5.4.1, and RFC 8058, which requires List-Unsubscribe and
// List-Unsubscribe-Post to be signed for one-click unsubscription). A
// field the message lacks is signed as absent, so that nobody can add it
// on the way without breaking the signature. Reply-To holds a seat's
// reply address, a credential: it is signed like From.
var dkimHeaders = []string{
	"From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type",
	"Content-Language", "List-Unsubscribe", "List-Unsubscribe-Post", "Auto-Submitted", "Precedence",
	"In-Reply-To", "References", "Reply-To",
}

// DKIM signs outgoing email with a domain's key (DomainKeys Identified
// Mail, RFC 6376), with github.com/emersion/go-msgauth: relaxed header and
// body canonicalization, SHA-256, and an RSA (rsa-sha256) or Ed25519
// (ed25519-sha256, RFC 8463) key. Receivers find the public key in DNS,
// in the TXT record DNSName, whose value is DNSRecord.
type DKIM struct {
	domain, selector string
	key              crypto.Signer
}

// NewDKIM returns a signer for domain's selector with key. Errors: an empty
// domain or selector, or a key that is neither RSA of 1024 bits or more
// nor Ed25519.
func NewDKIM(domain, selector string, key crypto.Signer) (*DKIM, error) {
	domain = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	selector = strings.TrimSpace(selector)
	if domain == "" || selector == "" {
		return nil, errors.New("notify: dkim: give a domain and a selector")
	}
	switch k := key.Public().(type) {
	case *rsa.PublicKey:
		if k.N.BitLen() < 1024 {
			return nil, fmt.Errorf("notify: dkim: an RSA key of %d bits is refused by receivers (RFC 8301): use 2048", k.N.BitLen())
		}
	case ed25519.PublicKey:
	default:
		return nil, fmt.Errorf("notify: dkim: key type %T: use RSA or Ed25519", k)
	}
	return &DKIM{domain: domain, selector: selector, key: key}, nil
}

// LoadDKIM reads a PEM private key from path (PKCS#1 "RSA PRIVATE KEY" or
// PKCS#8 "PRIVATE KEY", RSA or Ed25519, as `openssl genpkey` writes it)
// and returns a signer for domain's selector.
func LoadDKIM(path, selector, domain string) (*DKIM, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("notify: dkim key: %w", err)
	}
	key, err := ParseDKIMKey(b)
	if err != nil {
		return nil, fmt.Errorf("notify: dkim key %s: %w", path, err)
	}
	return NewDKIM(domain, selector, key)
}

// ParseDKIMKey decodes a PEM private key: PKCS#1 RSA, or PKCS#8 RSA or Ed25519.
func ParseDKIMKey(pemBytes []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	switch block.Type {
	case "RSA PRIVATE KEY":
		return x509.ParsePKCS1PrivateKey(block.Bytes)
	case "PRIVATE KEY":
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, err
		}
		switch k := k.(type) {
		case *rsa.PrivateKey:
			return k, nil
		case ed25519.PrivateKey:
			return k, nil
		default:
			return nil, fmt.Errorf("key type %T: use RSA or Ed25519", k)
		}
	}
	return nil, fmt.Errorf("PEM block %q: want \"PRIVATE KEY\" or \"RSA PRIVATE KEY\"", block.Type)
}

// Domain is the signing domain (the signature's d=).
func (d *DKIM) Domain() string { return d.domain }

// DNSName is where the public key is published: SELECTOR._domainkey.DOMAIN.
func (d *DKIM) DNSName() string { return d.selector + "._domainkey." + d.domain }

// DNSRecord is the value of the TXT record to publish at DNSName:
// "v=DKIM1; k=rsa; p=..." (or k=ed25519 with the raw 32-byte key).
func (d *DKIM) DNSRecord() string {
	var k string
	var pub []byte
	switch p := d.key.Public().(type) {
	case *rsa.PublicKey:
		// The SubjectPublicKeyInfo, as opendkim-genkey and openssl write it;
		// receivers accept it beside RFC 6376's bare RSAPublicKey.
		der, err := x509.MarshalPKIXPublicKey(p)
		if err != nil {
			return ""
		}
		k, pub = "rsa", der
	case ed25519.PublicKey:
		k, pub = "ed25519", []byte(p)
	}
	return "v=DKIM1; k=" + k + "; p=" + base64.StdEncoding.EncodeToString(pub)
}

// maxTXTString is the longest character-string of a TXT record (RFC 1035
// section 3.3: a length byte, then the characters).
const maxTXTString = 255

// ZoneRecord is the TXT record as a line of a zone file:
//
//	pbem1._domainkey.example.org. IN TXT "v=DKIM1; k=rsa; p=MIIBIjANBg…" "…IDAQAB"
//
// The value is split into strings of at most 255 characters, as DNS
// requires (a 2048-bit RSA key's value is about 410); a verifier joins them
// (RFC 6376 section 3.6.2.2). DNS hosting forms that take the value in one
// field want DNSRecord instead, and split it themselves.
func (d *DKIM) ZoneRecord() string {
	v := d.DNSRecord()
	var b strings.Builder
	b.WriteString(d.DNSName() + ". IN TXT")
	for len(v) > 0 {
		n := min(len(v), maxTXTString)
		b.WriteString(` "` + v[:n] + `"`)
		v = v[n:]
	}
	return b.String()
}

// AlignedWith reports whether a From address's domain is the signing
// domain or a subdomain of it (or the other way round): what DMARC's
// relaxed alignment asks, short of the public suffix list.
func (d *DKIM) AlignedWith(from string) bool {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return false
	}
	at := strings.LastIndexByte(a.Address, '@')
	if at < 0 {
		return false
	}
	fd := strings.ToLower(a.Address[at+1:])
	return fd == d.domain || strings.HasSuffix(fd, "."+d.domain) || strings.HasSuffix(d.domain, "."+fd)
}

// Sign returns the DKIM-Signature header field for the message raw (its
// header and body, CRLF line ends), without the field name and the final
// CRLF.
func (d *DKIM) Sign(raw []byte) (string, error) {
	s, err := dkim.NewSigner(&dkim.SignOptions{
		Domain: d.domain, Selector: d.selector, Signer: d.key, Hash: crypto.SHA256,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed,
		BodyCanonicalization:   dkim.CanonicalizationRelaxed,
		HeaderKeys:             dkimHeaders,
	})
	if err != nil {
		return "", fmt.Errorf("notify: dkim: %w", err)
	}
	if _, err := s.Write(raw); err != nil {
		_ = s.Close()
		return "", fmt.Errorf("notify: dkim: %w", err)
	}
	if err := s.Close(); err != nil {
		return "", fmt.Errorf("notify: dkim: %w", err)
	}
	field := strings.TrimSuffix(s.Signature(), "\r\n")
	name, value, ok := strings.Cut(field, ":")
	if !ok || !strings.EqualFold(name, "DKIM-Signature") {
		return "", fmt.Errorf("notify: dkim: unexpected signature field %q", field)
	}
	return strings.TrimLeft(value, " "), nil
}

// signMsg adds a DKIM-Signature to gm. go-mail writes a message the same
// way each time (its Date and Message-ID are set, its multipart boundary
// is kept from the first rendering), so the message as sent is the one
// signed, with the signature field added.
func (d *DKIM) signMsg(gm *gomail.Msg) error {
	var buf bytes.Buffer
	if _, err := gm.WriteTo(&buf); err != nil {
		return fmt.Errorf("notify: dkim: render: %w", err)
	}
	sig, err := d.Sign(buf.Bytes())
	if err != nil {
		return err
	}
	gm.SetGenHeaderPreformatted(gomail.Header("DKIM-Signature"), sig)
	return nil
}
