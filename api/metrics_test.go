package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"pbem/api"
)

// syncBuffer is a log destination written by the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestRequestMetricsByRouteAndRequestIDInLogs: requests are counted by
// echo's route path and the status sent (a 404 for any unknown URL is one
// "unmatched" series), /metrics serves them, and every line logged during
// a request carries its id, the server's own lines and the access line.
func TestRequestMetricsByRouteAndRequestIDInLogs(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	log := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	reg := prometheus.NewRegistry()
	srv := api.New(api.Config{Logger: log, Metrics: reg,
		Health: func(context.Context) error { return errors.New("database down") }})
	hs := httptest.NewServer(srv)
	defer hs.Close()

	get := func(path, id string) (int, string) {
		req, _ := http.NewRequest(http.MethodGet, hs.URL+path, nil)
		if id != "" {
			req.Header.Set("X-Request-ID", id)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("/healthz", "health-check-1"); code != http.StatusServiceUnavailable {
		t.Fatalf("GET /healthz: %d, want 503", code)
	}
	for _, p := range []string{"/no/such/page/1", "/no/such/page/2"} {
		if code, _ := get(p, ""); code != http.StatusNotFound {
			t.Fatalf("GET %s: %d, want 404", p, code)
		}
	}
	code, text := get("/metrics", "")
	if code != http.StatusOK {
		t.Fatalf("GET /metrics: %d", code)
	}
	for _, want := range []string{
		`pbem_http_requests_total{method="GET",route="/healthz",status="503"} 1`,
		`pbem_http_requests_total{method="GET",route="unmatched",status="404"} 2`,
		`pbem_http_request_duration_seconds_count{method="GET",route="/healthz"} 1`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "/no/such/page") {
		t.Errorf("/metrics holds a raw URL:\n%s", text)
	}

	var ofHealth []string
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		id, _ := rec["request_id"].(string)
		if id == "" {
			t.Errorf("a line logged during a request has no request id: %s", line)
		}
		if id == "health-check-1" {
			ofHealth = append(ofHealth, rec["msg"].(string))
		}
	}
	if strings.Join(ofHealth, ",") != "health check failed,request" {
		t.Errorf("lines of request health-check-1: %v", ofHealth)
	}
}

// TestLogHandlerAddsTheContextsRequestID checks the handler on its own:
// only a context with a request id adds one, and attributes and groups
// set on the logger are kept.
func TestLogHandlerAddsTheContextsRequestID(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(api.NewLogHandler(slog.NewJSONHandler(&buf, nil))).With("component", "test")
	log.InfoContext(api.WithRequestID(context.Background(), "r-1"), "with")
	log.InfoContext(context.Background(), "without")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"request_id":"r-1"`) || !strings.Contains(lines[0], `"component":"test"`) ||
		strings.Contains(lines[1], "request_id") {
		t.Errorf("log lines:\n%s", buf.String())
	}
	if got := api.RequestID(api.WithRequestID(context.Background(), "x")); got != "x" {
		t.Errorf("RequestID = %q", got)
	}
}
