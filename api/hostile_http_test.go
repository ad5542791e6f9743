package api_test

// The hostile-input suite of the HTTP side (issue #29): each attack is sent
// to a real server over HTTP on loopback, and each test checks the answer
// and that nothing changed.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"pbem/api"
	"pbem/engine/bagpipes"
	"pbem/events/tokens"
	"pbem/projections/testgame"
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
	t.Parallel()
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

// TestHostileAdminMailIsLimited: the admin actions that email a player
// (resend a link, correct an address, replace a player) are charged like
// invitations to the organiser's address, one for each email they cause
// (a replacement two: the invitation and the notice to the player
// replaced): past the day's budget they answer 429 with Retry-After and
// change nothing; a wrong token spends nothing.
func TestHostileAdminMailIsLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	g := e.create(testgame.Name, 2, `{"target":25}`) // 2 of the organiser's 40 invitations a day
	for range 5 {
		if code := e.do(http.MethodPost, "/api/v1/games/"+g.ID+"/admin/resend", "not-the-token", map[string]int{"seat": 0}, nil); code != http.StatusUnauthorized {
			t.Fatalf("resend with a wrong token: %d", code)
		}
	}
	actions := []struct {
		path   string
		emails int // the emails it causes
		body   func(i int) any
	}{
		{"resend", 1, func(int) any { return map[string]int{"seat": 0} }},
		{"email", 1, func(i int) any { return map[string]any{"seat": 1, "email": fmt.Sprintf("bob%d@example.org", i)} }},
		{"replace", 2, func(i int) any {
			return map[string]any{"seat": 1, "name": fmt.Sprintf("Bob %d", i), "email": fmt.Sprintf("new%d@example.org", i)}
		}},
	}
	sent := 0
	for i := 0; sent < api.DefaultInvitationsPerDayAddress-2; i++ {
		a := actions[i%len(actions)]
		if code := e.do(http.MethodPost, "/api/v1/games/"+g.ID+"/admin/"+a.path, g.AdminToken, a.body(i), nil); code != http.StatusOK {
			t.Fatalf("admin %s number %d: %d", a.path, i, code)
		}
		sent += a.emails
	}
	if sent != api.DefaultInvitationsPerDayAddress-2 {
		t.Fatalf("the actions sent %d emails, want the budget's %d exactly", sent, api.DefaultInvitationsPerDayAddress-2)
	}
	var before summaryBody
	e.do(http.MethodGet, "/api/v1/games/"+g.ID, g.AdminToken, nil, &before)
	for i, a := range actions {
		body, err := json.Marshal(a.body(1000 + i))
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, e.url+"/api/v1/games/"+g.ID+"/admin/"+a.path, bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+g.AdminToken)
		req.Header.Set("Content-Type", "application/json")
		code, h, out := hostileDo(t, req)
		if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" {
			t.Errorf("admin %s past the budget: %d, Retry-After %q: %s", a.path, code, h.Get("Retry-After"), out)
		}
	}
	var after summaryBody
	e.do(http.MethodGet, "/api/v1/games/"+g.ID, g.AdminToken, nil, &after)
	if after.Version != before.Version {
		t.Errorf("refused admin actions moved the game from version %d to %d", before.Version, after.Version)
	}
}

// TestHostileAdminCannotPutTwoSeatsOnOneAddress: correcting an address or
// replacing a player with the address of another seat of the game (in
// any case) is refused with 400 naming that seat, and changes nothing.
func TestHostileAdminCannotPutTwoSeatsOnOneAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	g := e.create(testgame.Name, 3, `{"target":25}`) // Ann, Bob, Cid @example.org
	var before summaryBody
	e.do(http.MethodGet, "/api/v1/games/"+g.ID, g.AdminToken, nil, &before)
	for _, tc := range []struct {
		path string
		body map[string]any
	}{
		{"email", map[string]any{"seat": 1, "email": "ann@example.org"}},
		{"email", map[string]any{"seat": 2, "email": "BOB@Example.org"}},
		{"replace", map[string]any{"seat": 2, "name": "Dan", "email": "Ann@example.org"}},
	} {
		var eb errBody
		code := e.do(http.MethodPost, "/api/v1/games/"+g.ID+"/admin/"+tc.path, g.AdminToken, tc.body, &eb)
		if code != http.StatusBadRequest || !strings.Contains(eb.Error.Message, "one seat per address") {
			t.Errorf("admin %s %v: %d %+v, want 400 saying one seat per address", tc.path, tc.body, code, eb)
		}
	}
	var after summaryBody
	e.do(http.MethodGet, "/api/v1/games/"+g.ID, g.AdminToken, nil, &after)
	if after.Version != before.Version {
		t.Errorf("refused admin actions moved the game from version %d to %d", before.Version, after.Version)
	}
	// The seat's own address, in another case, is no conflict.
	if code := e.do(http.MethodPost, "/api/v1/games/"+g.ID+"/admin/email", g.AdminToken, map[string]any{"seat": 1, "email": "BOB@example.org"}, nil); code != http.StatusOK {
		t.Errorf("correcting a seat to its own address in capitals: %d", code)
	}
}

// TestHostileNames: names of players and of the organiser with control,
// text-direction (U+202E shows "txt.exe" as "exe.txt"), line-separator or
// zero-width characters, and custom card names that break lines, hide
// characters or run long, are refused with 400
// naming the field; no game is proposed.
func TestHostileNames(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testgame.Game{}, bagpipes.Game{})
	players := func(first string) []map[string]string {
		return []map[string]string{{"name": first, "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}}
	}
	org := map[string]string{"name": "Org", "email": "org@example.org"}
	cards, err := os.ReadFile("../engine/bagpipes/cards.json")
	if err != nil {
		t.Fatal(err)
	}
	withCardName := func(name string) json.RawMessage {
		var cs map[string][]map[string]any
		if err := json.Unmarshal(cards, &cs); err != nil {
			t.Fatal(err)
		}
		cs["bagpipes"][0]["name"] = name
		b, err := json.Marshal(map[string]any{"cards": cs})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		what  string
		body  map[string]any
		field string
	}{
		{"a right-to-left override", map[string]any{"game": testgame.Name, "players": players("Ann\u202Egnp.exe"), "organiser": org}, "players[0].name"},
		{"an isolate", map[string]any{"game": testgame.Name, "players": players("\u2067Ann"), "organiser": org}, "players[0].name"},
		{"an escape sequence", map[string]any{"game": testgame.Name, "players": players("Ann\x1b[2J"), "organiser": org}, "players[0].name"},
		{"an organiser's override", map[string]any{"game": testgame.Name, "players": players("Ann"),
			"organiser": map[string]string{"name": "Org\u202D", "email": "org@example.org"}}, "organiser.name"},
		{"a card name with CR LF", map[string]any{"game": bagpipes.Name, "players": players("Ann"), "organiser": org,
			"options": withCardName("Pipes\r\nBcc: all@example.org")}, "cards"},
		{"a card name of 10,000 characters", map[string]any{"game": bagpipes.Name, "players": players("Ann"), "organiser": org,
			"options": withCardName(strings.Repeat("Pipes ", 2000))}, "cards"},
		{"a line separator", map[string]any{"game": testgame.Name, "players": players("Ann\u2028Bcc"), "organiser": org}, "players[0].name"},
		{"a zero-width space", map[string]any{"game": testgame.Name, "players": players("A\u200Bnn"), "organiser": org}, "players[0].name"},
		{"an organiser's paragraph separator", map[string]any{"game": testgame.Name, "players": players("Ann"),
			"organiser": map[string]string{"name": "Org\u2029Bcc", "email": "org@example.org"}}, "organiser.name"},
		{"a card name with a zero-width space", map[string]any{"game": bagpipes.Name, "players": players("Ann"), "organiser": org,
			"options": withCardName("Pi\u200Bpes")}, "cards"},
		{"a card name with a line separator", map[string]any{"game": bagpipes.Name, "players": players("Ann"), "organiser": org,
			"options": withCardName("Pipes\u2028Drums")}, "cards"},
	} {
		var eb struct {
			Error struct {
				Code, Message, Field string
			} `json:"error"`
		}
		code := e.do(http.MethodPost, "/api/v1/games", "", tc.body, &eb)
		if code != http.StatusBadRequest || eb.Error.Field != tc.field || len(eb.Error.Message) > 300 {
			t.Errorf("%s: %d %+v, want 400 on %s", tc.what, code, eb, tc.field)
		}
	}
	var n int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM proposals`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d proposals (%v) after refused requests, want 0", n, err)
	}
	// A plain custom name is accepted.
	if code := e.do(http.MethodPost, "/api/v1/games", "", map[string]any{"game": bagpipes.Name, "players": players("Ann"), "organiser": org,
		"options": withCardName("Pipes of Peace")}, nil); code != http.StatusAccepted {
		t.Errorf("a plain custom card name: %d", code)
	}
}

// TestHostileConfirmLinkDoesNotHandOutTheAdminTokenAgain: once a game is
// confirmed, its confirmation link (valid 48 hours, perhaps forwarded)
// only emails the admin link to the organiser again: its answer holds no
// admin token.
func TestHostileConfirmLinkDoesNotHandOutTheAdminTokenAgain(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	g := e.create(testgame.Name, 2, `{"target":25}`)
	var again map[string]any
	req, _ := http.NewRequest(http.MethodPost, e.url+"/api/v1/confirm/"+tokens.Confirm(secret, g.ID), nil)
	code, _, body := hostileDo(t, req)
	if err := json.Unmarshal([]byte(body), &again); err != nil || code != http.StatusOK || again["again"] != true {
		t.Fatalf("confirm again: %d %s", code, body)
	}
	if _, ok := again["admin_token"]; ok || strings.Contains(body, g.AdminToken) {
		t.Errorf("the repeated confirmation answered the admin token: %s", body)
	}
}
