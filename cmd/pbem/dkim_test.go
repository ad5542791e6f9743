package main

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"testing"
)

// TestLoadDKIM: no variable, no signing; some but not all, an error; all
// three, a signer, the DNS record to publish in the log, and a warning
// when the From address is outside the signing domain.
func TestLoadDKIM(t *testing.T) {
	t.Parallel()
	key, txt := writeEd25519Key(t)
	var logs, out bytes.Buffer
	envWith := func(k, sel, dom string) *env {
		logs.Reset()
		out.Reset()
		return &env{cfg: config{DKIMKey: k, DKIMSelector: sel, DKIMDomain: dom},
			log: slog.New(slog.NewTextHandler(&logs, nil)), stderr: io.Discard, stdout: &out}
	}
	if d, on, err := loadDKIM(envWith("", "", ""), "pbem@example.org"); on || d != nil || err != nil {
		t.Errorf("no DKIM variable: %v %v %v", d, on, err)
	}
	for _, c := range [][3]string{{key, "", ""}, {"", "s", "example.org"}, {key, "s", ""}} {
		if _, _, err := loadDKIM(envWith(c[0], c[1], c[2]), ""); err == nil || !strings.Contains(err.Error(), "PBEM_DKIM_SELECTOR") {
			t.Errorf("DKIM variables %q: %v, want an error naming the three", c, err)
		}
	}
	if _, _, err := loadDKIM(envWith(key+".missing", "s", "example.org"), ""); err == nil {
		t.Error("a missing key file was accepted")
	}
	d, on, err := loadDKIM(envWith(key, "pbem1", "example.org"), "Games <pbem@example.org>")
	if err != nil || d == nil || !on {
		t.Fatalf("loadDKIM: %v", err)
	}
	if !strings.Contains(logs.String(), "pbem1._domainkey.example.org") || !strings.Contains(logs.String(), txt) ||
		strings.Contains(logs.String(), "not in the signing domain") {
		t.Errorf("log:\n%s", logs.String())
	}
	if !strings.Contains(out.String(), "\npbem1._domainkey.example.org. IN TXT \""+txt+"\"\n") {
		t.Errorf("printed:\n%s", out.String())
	}
	if _, _, err := loadDKIM(envWith(key, "pbem1", "example.org"), "pbem@other.example.com"); err != nil ||
		!strings.Contains(logs.String(), "not in the signing domain") {
		t.Errorf("no warning for a From outside the signing domain (%v):\n%s", err, logs.String())
	}
}
