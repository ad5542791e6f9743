package https

import (
	"net/http/httptest"
	"strings"
	"testing"
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
		port, method, host, target string
		code                       int
		location                   string
	}{
		{"443", "GET", "play.example.org", "/games/x?a=1", 301, "https://play.example.org/games/x?a=1"},
		{"443", "HEAD", "play.example.org:80", "/", 301, "https://play.example.org/"},
		{"8443", "POST", "play.example.org", "/api/v1/games", 308, "https://play.example.org:8443/api/v1/games"},
		{"443", "GET", "[::1]:80", "/", 301, "https://[::1]/"},
		{"443", "GET", "evil.example@x", "/", 400, ""},
	} {
		req := httptest.NewRequest(tc.method, "http://placeholder"+tc.target, nil)
		req.Host = tc.host
		rec := httptest.NewRecorder()
		redirectHandler(tc.port).ServeHTTP(rec, req)
		if rec.Code != tc.code || rec.Header().Get("Location") != tc.location {
			t.Errorf("%s %s%s (https port %s): %d %q, want %d %q", tc.method, tc.host, tc.target, tc.port,
				rec.Code, rec.Header().Get("Location"), tc.code, tc.location)
		}
	}
}
