package api_test

// The hostile-input suite of the HTTP side (issue #29): each attack is sent
// to a real server over HTTP on loopback, and each test checks the answer
// and that nothing changed.

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"pbem/api"
)

// hostileDo sends one request and returns its status, headers and body.
func hostileDo(t *testing.T, req *http.Request) (int, http.Header, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// TestHostileMetricsLabelsStayBounded: invented methods and URLs do not
// add series to /metrics: they are counted as method "other" and route
// "unmatched", and /metrics stays the same size however many are sent.
func TestHostileMetricsLabelsStayBounded(t *testing.T) {
	reg := prometheus.NewRegistry()
	hs := httptest.NewServer(api.New(api.Config{Metrics: reg}))
	defer hs.Close()
	send := func(method, path string) int {
		req, err := http.NewRequest(method, hs.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		code, _, _ := hostileDo(t, req)
		return code
	}
	metrics := func() string {
		req, _ := http.NewRequest(http.MethodGet, hs.URL+"/metrics", nil)
		code, _, body := hostileDo(t, req)
		if code != http.StatusOK {
			t.Fatalf("GET /metrics: %d", code)
		}
		return body
	}
	attack := func(from, to int) {
		for i := from; i < to; i++ {
			send(fmt.Sprintf("INVENTED%d", i), "/healthz")
			send(fmt.Sprintf("X%d", i), fmt.Sprintf("/no/such/%d", i))
			send(http.MethodGet, fmt.Sprintf("/static/../%d", i))
		}
	}
	attack(0, 20)
	metrics() // its own series appear from the second scrape on
	series := func(text string) int { return strings.Count(text, "\npbem_http_") }
	before := series(metrics())
	attack(20, 300)
	text := metrics()
	if after := series(text); after != before {
		t.Errorf("/metrics went from %d to %d request series after 840 more invented requests", before, after)
	}
	for _, bad := range []string{"INVENTED", `method="X`, "/no/such"} {
		if strings.Contains(text, bad) {
			t.Errorf("/metrics holds a client's label %q", bad)
		}
	}
	if want := `pbem_http_requests_total{method="other",route="/healthz",status="405"} 300`; !strings.Contains(text, want) {
		t.Errorf("/metrics lacks %s:\n%s", want, text)
	}
	if want := `pbem_http_requests_total{method="other",route="unmatched",status="404"} 300`; !strings.Contains(text, want) {
		t.Errorf("/metrics lacks %s:\n%s", want, text)
	}
}
