package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"pbem/api"
)

// getMetrics reads url with the bearer token tok ("" for none).
func getMetrics(t *testing.T, url, tok string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestMetricsNeedTheirToken: with Config.MetricsToken, GET /metrics
// answers 401 without the bearer token or with another, and the process
// counters with it; with MetricsApart the main handler has no /metrics,
// and MetricsHandler serves it (its token too) and nothing else.
func TestMetricsNeedTheirToken(t *testing.T) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	hs := httptest.NewServer(api.New(api.Config{Metrics: reg, MetricsToken: "s3cret-metrics-token"}))
	defer hs.Close()
	for _, tok := range []string{"", "wrong", "s3cret-metrics-tokeN"} {
		if code, body := getMetrics(t, hs.URL+"/metrics", tok); code != http.StatusUnauthorized || strings.Contains(body, "process_cpu_seconds_total") {
			t.Errorf("/metrics with token %q: %d\n%.200s", tok, code, body)
		}
	}
	if code, body := getMetrics(t, hs.URL+"/metrics", "s3cret-metrics-token"); code != http.StatusOK || !strings.Contains(body, "process_cpu_seconds_total") {
		t.Errorf("/metrics with its token: %d\n%.200s", code, body)
	}

	apart := httptest.NewServer(api.New(api.Config{Metrics: prometheus.NewRegistry(), MetricsApart: true}))
	defer apart.Close()
	if code, _ := getMetrics(t, apart.URL+"/metrics", ""); code != http.StatusNotFound {
		t.Errorf("/metrics on the main handler with MetricsApart: %d, want 404", code)
	}
	own := httptest.NewServer(api.MetricsHandler(reg, "tok", nil))
	defer own.Close()
	if code, _ := getMetrics(t, own.URL+"/metrics", ""); code != http.StatusUnauthorized {
		t.Errorf("MetricsHandler without its token: %d, want 401", code)
	}
	if code, body := getMetrics(t, own.URL+"/metrics", "tok"); code != http.StatusOK || !strings.Contains(body, "process_cpu_seconds_total") {
		t.Errorf("MetricsHandler with its token: %d", code)
	}
	if code, _ := getMetrics(t, own.URL+"/", "tok"); code != http.StatusNotFound {
		t.Errorf("MetricsHandler at /: %d, want 404", code)
	}
}
