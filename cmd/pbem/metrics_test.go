package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/notify/smtpsink"
)

// TestMetricsCountAMoveAndAnEmail runs the real binary with an SMTP relay
// (smtpsink) and a DKIM key, creates a game and plays a move over HTTP,
// then reads GET /metrics: the request, move, email, append, pool and
// outbox metrics moved; the invitations arrived DKIM-signed; the logs are
// JSON lines (stderr is a pipe) and the move's lines carry its request id.
func TestMetricsCountAMoveAndAnEmail(t *testing.T) {
	t.Parallel()
	sink := smtpsink.Start(t, smtpsink.Options{})
	keyPath, txt := writeEd25519Key(t)
	srv := startServe(t, []string{"DATABASE_URL=" + pgtest.NewEmptyDB(t), "PBEM_DATA=" + t.TempDir(),
		"PBEM_SMTP_URL=smtp://" + sink.Addr() + "?tls=none", "PBEM_MAIL_FROM=pbem@example.org",
		"PBEM_DKIM_KEY=" + keyPath, "PBEM_DKIM_SELECTOR=pbem1", "PBEM_DKIM_DOMAIN=example.org",
		"PBEM_LOG_LEVEL=debug", "PBEM_SECRET=" + testServeSecret})

	var created struct {
		ID string `json:"id"`
	}
	call(t, http.MethodPost, srv.base+"/api/v1/games", "", "", `{"game":"lords-of-scotland","language":"en",
		"organiser":{"name":"Ann","email":"ann@example.org"},
		"players":[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}]}`, http.StatusAccepted, &created)
	call(t, http.MethodPost, srv.base+"/api/v1/confirm/"+tokens.Confirm([]byte(testServeSecret), created.ID), "", "", "",
		http.StatusCreated, nil)

	// The organiser's confirmation, the two invitations and the admin link.
	msgs := sink.Wait(4, 60*time.Second)
	if len(msgs) < 4 {
		t.Fatalf("%d emails arrived, want 4\n%s", len(msgs), srv.stderr.String())
	}
	lookup := func(name string) ([]string, error) {
		if name != "pbem1._domainkey.example.org" {
			t.Errorf("DKIM key looked up at %s", name)
		}
		return []string{txt}, nil
	}
	linkRE := regexp.MustCompile(`/play/` + created.ID + `\?token=([A-Za-z0-9_%-]+)`)
	var tokens []string
	for _, m := range msgs {
		vs, err := dkim.VerifyWithOptions(bytes.NewReader(m.Data), &dkim.VerifyOptions{LookupTXT: lookup})
		if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != "example.org" {
			t.Errorf("DKIM of the email to %v: %v %+v", m.To, err, vs)
		}
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		sub := linkRE.FindStringSubmatch(p.Text)
		if sub == nil {
			continue // the organiser's emails carry no play link
		}
		tok, _ := url.QueryUnescape(sub[1])
		tokens = append(tokens, tok)
	}

	// Play one legal move of a seat whose turn it is.
	moved := false
	for _, tok := range tokens {
		var v struct {
			Version    int64             `json:"version"`
			LegalMoves []json.RawMessage `json:"legal_moves"`
		}
		call(t, http.MethodGet, srv.base+"/api/v1/games/"+created.ID+"/view", tok, "", "", http.StatusOK, &v)
		if len(v.LegalMoves) == 0 {
			continue
		}
		body, _ := json.Marshal(map[string]any{"version": v.Version, "move": v.LegalMoves[0]})
		call(t, http.MethodPost, srv.base+"/api/v1/games/"+created.ID+"/moves", tok, "move-of-the-metrics-test",
			string(body), http.StatusOK, nil)
		moved = true
		break
	}
	if !moved {
		t.Fatal("no seat had a legal move")
	}

	fams := scrape(t, srv.base)
	for _, c := range []struct {
		name   string
		labels map[string]string
		min    float64
	}{
		{"pbem_moves_total", map[string]string{"game": "lords-of-scotland"}, 1},
		{"pbem_http_requests_total", map[string]string{"method": "POST", "route": "/api/v1/games/:id/moves", "status": "200"}, 1},
		{"pbem_http_requests_total", map[string]string{"method": "POST", "route": "/api/v1/games", "status": "202"}, 1},
		{"pbem_http_request_duration_seconds", map[string]string{"method": "POST", "route": "/api/v1/games/:id/moves"}, 1},
		{"pbem_emails_sent_total", map[string]string{"kind": "invitation"}, 2},
		{"pbem_store_append_seconds", map[string]string{"result": "ok"}, 2},
		{"pbem_store_events_appended_total", nil, 2},
		{"pbem_db_up", nil, 1},
		{"pbem_db_pool_acquires_total", nil, 1},
		{"pbem_db_pool_max_conns", nil, 1},
	} {
		if got := metricValue(fams, c.name, c.labels); got < c.min {
			t.Errorf("%s%v = %v, want at least %v", c.name, c.labels, got, c.min)
		}
	}
	for _, name := range []string{"pbem_outbox_pending", "pbem_outbox_oldest_due_age_seconds", "pbem_outbox_failed",
		"pbem_deadlines_fired_total", "go_goroutines", "process_resident_memory_bytes"} {
		if _, ok := fams[name]; !ok {
			t.Errorf("/metrics has no %s", name)
		}
	}
	checkAlertMetrics(t, fams)
	if f := fams["pbem_http_requests_total"]; f != nil {
		for _, m := range f.GetMetric() {
			if r := labelOf(m, "route"); strings.Contains(r, created.ID) {
				t.Errorf("a route label holds the raw URL: %q", r)
			}
		}
	}

	srv.stop(t)
	checkJSONLogs(t, srv.stderr.String(), "move-of-the-metrics-test")
}

// checkJSONLogs checks that every line of logs is a JSON object with a
// message, that the lines logged for request id are there, and that every
// per-request line has a request id.
func checkJSONLogs(t *testing.T, logs, id string) {
	t.Helper()
	var ofRequest int
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec["msg"] == nil {
			t.Errorf("log line is not a JSON record: %q", line)
			continue
		}
		if rec["msg"] == "request" && rec["request_id"] == nil {
			t.Errorf("request line without request id: %s", line)
		}
		if rec["request_id"] == id {
			ofRequest++
			if rec["msg"] == "request" && rec["route"] != "/api/v1/games/:id/moves" {
				t.Errorf("line of the move's request: %s", line)
			}
		}
	}
	if ofRequest == 0 {
		t.Errorf("no log line carries request id %s:\n%s", id, logs)
	}
}

// call sends an HTTP request (token as a bearer token, id as X-Request-ID,
// when set), checks its status and decodes its JSON answer into out.
func call(t *testing.T, method, u, token, id, body string, status int, out any) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if id != "" {
		req.Header.Set("X-Request-ID", id)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d %s, want %d", method, u, resp.StatusCode, b, status)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, u, err, b)
		}
	}
}

// scrape reads GET /metrics and parses the Prometheus text format.
func scrape(t *testing.T, base string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("GET /metrics: %v", err)
	}
	return fams
}

// metricValue sums the samples of family name whose labels include
// labels: counters and gauges by value, histograms by count.
func metricValue(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	var sum float64
	f := fams[name]
	if f == nil {
		return -1
	}
next:
	for _, m := range f.GetMetric() {
		for k, v := range labels {
			if labelOf(m, k) != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			sum += m.Counter.GetValue()
		case m.Gauge != nil:
			sum += m.Gauge.GetValue()
		case m.Histogram != nil:
			sum += float64(m.Histogram.GetSampleCount())
		}
	}
	return sum
}

func labelOf(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// writeEd25519Key writes a fresh Ed25519 key as `openssl genpkey -algorithm
// ed25519` does (PKCS#8 PEM) and returns its path and the DKIM TXT record
// of its public key (RFC 8463: the raw 32 bytes).
func writeEd25519Key(t *testing.T) (path, txt string) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "dkim.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
}

// TestMetricsListenApart: with PBEM_METRICS_LISTEN, serve answers GET
// /metrics on that address only (the main listener: 404), and with
// PBEM_METRICS_TOKEN only to the bearer of the token.
func TestMetricsListenApart(t *testing.T) {
	srv := startServe(t, []string{"DATABASE_URL=" + pgtest.NewEmptyDB(t), "PBEM_DATA=" + t.TempDir(), "PBEM_SMTP_URL=",
		"PBEM_SECRET=" + testServeSecret, "PBEM_METRICS_LISTEN=127.0.0.1:0", "PBEM_METRICS_TOKEN=metrics-token-1"})
	m := regexp.MustCompile(`pbem: metrics on (http://\S+/metrics)`).FindStringSubmatch(srv.stdout.String())
	if m == nil {
		t.Fatalf("serve did not say where the metrics are:\n%s", srv.stdout.String())
	}
	get := func(url, tok string) int {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		_, _ = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode
	}
	if code := get(srv.base+"/metrics", "metrics-token-1"); code != http.StatusNotFound {
		t.Errorf("/metrics on the main listener: %d, want 404", code)
	}
	if code := get(m[1], ""); code != http.StatusUnauthorized {
		t.Errorf("%s without the token: %d, want 401", m[1], code)
	}
	if code := get(m[1], "metrics-token-1"); code != http.StatusOK {
		t.Errorf("%s with the token: %d, want 200", m[1], code)
	}
	srv.stop(t)
}
