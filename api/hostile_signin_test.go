package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"pbem/api"
	"pbem/events/play"
	"pbem/projections/testgame"
)

// signinRequest asks a sign-in link for email from client (an IP the
// server takes from X-Forwarded-For, or "" for the peer's) and returns the
// status.
func signinRequest(t *testing.T, base, client, email string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/api/v1/signin", strings.NewReader(`{"email":"`+email+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if client != "" {
		req.Header.Set("X-Forwarded-For", client)
	}
	code, _, _ := hostileDo(t, req)
	return code
}

// TestHostileSigninBudgets: a stranger who spends the sign-in budget of an
// address from their IP does not lock its owner out (the owner, from
// elsewhere, still gets a link), and requests that fail with 503 (the
// database down) spend nothing.
func TestHostileSigninBudgets(t *testing.T) {
	t.Parallel()
	e := newOutageEnv(t)
	ctx := context.Background()
	if _, err := e.svc.Create(ctx, play.CreateGame{Game: testgame.Name, Options: json.RawMessage(`{"target":25}`),
		Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
		Players:   []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	links := func() int {
		var n int
		if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM signin_links WHERE email = 'ann@example.org'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	e.proxy.cut()
	for i := range api.DefaultSigninsPerHour + 2 {
		if code := signinRequest(t, e.url, "", "ann@example.org"); code != http.StatusServiceUnavailable {
			t.Fatalf("sign-in request %d with the database down: %d, want 503", i, code)
		}
	}
	e.proxy.restore()
	// The pool reconnects: requests that still fail spend nothing either.
	deadline := time.Now().Add(30 * time.Second)
	for signinRequest(t, e.url, "", "ann@example.org") != http.StatusAccepted {
		if time.Now().After(deadline) {
			t.Fatal("sign-in requests still fail 30 s after the database came back")
		}
	}
	for i := 1; i < api.DefaultSigninsPerHour; i++ {
		if code := signinRequest(t, e.url, "", "ann@example.org"); code != http.StatusAccepted {
			t.Fatalf("sign-in request %d after the outage: %d, want 202 (failed requests spent the budget)", i, code)
		}
	}
	if code := signinRequest(t, e.url, "", "ann@example.org"); code != http.StatusTooManyRequests {
		t.Fatalf("sign-in request %d: %d, want 429", api.DefaultSigninsPerHour, code)
	}

	// Behind a proxy: a stranger spends the address's budget from their IP.
	hs := httptest.NewServer(api.New(api.Config{Service: e.svc, TrustProxy: true}))
	defer hs.Close()
	for i := range api.DefaultSigninsPerHour {
		if code := signinRequest(t, hs.URL, "198.51.100.1", "ann@example.org"); code != http.StatusAccepted {
			t.Fatalf("stranger's request %d: %d", i, code)
		}
	}
	if code := signinRequest(t, hs.URL, "198.51.100.1", "ann@example.org"); code != http.StatusTooManyRequests {
		t.Fatalf("stranger's request past the budget: %d, want 429", code)
	}
	before := links()
	if code := signinRequest(t, hs.URL, "203.0.113.9", "ann@example.org"); code != http.StatusAccepted || links() != before+1 {
		t.Fatalf("the owner's request from their own IP: %d, links %d -> %d; want 202 and a new link", code, before, links())
	}
}

// TestHostileJSONSigninFromAnotherSite: the JSON sign-in routes refuse a
// browser's request from another site (403, the link not spent); the
// session they answer is not set as a cookie, and GET /api/v1/me/games
// reads no cookie (a session cookie alone is 401).
func TestHostileJSONSigninFromAnotherSite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(testgame.Name, 2, `{"target":25}`)
	cross := map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}
	post := func(path, body string, headers map[string]string) (int, http.Header, string) {
		req, _ := http.NewRequest(http.MethodPost, e.url+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		return hostileDo(t, req)
	}
	if code, _, body := post("/api/v1/signin", `{"email":"ann@example.org"}`, cross); code != http.StatusForbidden || e.signinLink("ann@example.org") != "" {
		t.Fatalf("sign-in request from another site: %d %s", code, body)
	}
	if code := signinRequest(t, e.url, "", "ann@example.org"); code != http.StatusAccepted {
		t.Fatalf("sign-in request: %d", code)
	}
	tok := e.signinLink("ann@example.org")
	if code, _, body := post("/api/v1/signin/"+tok, "", cross); code != http.StatusForbidden {
		t.Fatalf("sign in from another site: %d %s", code, body)
	}
	code, h, body := post("/api/v1/signin/"+tok, "", nil)
	var s struct{ Session string }
	if code != http.StatusOK || json.Unmarshal([]byte(body), &s) != nil || s.Session == "" {
		t.Fatalf("sign in (the link unspent by the refused request): %d %s", code, body)
	}
	if ck := h.Values("Set-Cookie"); len(ck) > 0 {
		t.Errorf("the JSON sign-in set cookies: %q", ck)
	}
	req, _ := http.NewRequest(http.MethodGet, e.url+"/api/v1/me/games", nil)
	req.AddCookie(&http.Cookie{Name: "pbem_session", Value: s.Session})
	if code, _, body := hostileDo(t, req); code != http.StatusUnauthorized {
		t.Errorf("GET /api/v1/me/games with the session cookie only: %d %s, want 401", code, body)
	}
	if code := e.do(http.MethodGet, "/api/v1/me/games", s.Session, nil, nil); code != http.StatusOK {
		t.Errorf("GET /api/v1/me/games with the session as bearer: %d", code)
	}
}
