package api_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"pbem/api"
	"pbem/engine/lords"
	"pbem/events/tokens"
	"pbem/notify"
	"pbem/notify/smtpsink"
	"pbem/projections"
	"pbem/projections/testgame"
)

// Regression tests of issue #20's defects (1, 2, 7, 8, 9) and of the
// middleware of issue #13, each through a real server on a real database.

// TestQuotedNameInvitationIsSent creates a game over the API with names
// holding quotes, a comma and angle brackets: the invitations go out
// through a real SMTP conversation and their To headers parse back to the
// same names (defect 1: the quote made the header unparsable and the
// invitation failed).
func TestQuotedNameInvitationIsSent(t *testing.T) {
	t.Parallel()
	e := newMailEnv(t, false)
	body := `{"game":"count","organiser":{"name":"Ann \"Ace\" Smith","email":"ann@example.org"},` +
		`"players":[{"name":"Ann \"Ace\" Smith","email":"ann@example.org"},{"name":"Smith, Bob <b>","email":"bob@example.org"}]}`
	if st, out := proposeAndConfirm(t, e.url, body); st != http.StatusCreated {
		t.Fatalf("create: %d %s", st, out)
	}
	names := map[string]string{"ann@example.org": `Ann "Ace" Smith`, "bob@example.org": "Smith, Bob <b>"}
	// The organiser's confirmation, the two invitations and the admin link.
	for _, m := range deliverOutbox(t, e.pool, e.url, 4) {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		to, err := mail.ParseAddress(p.Header.Get("To"))
		if err != nil || to.Name != names[to.Address] {
			t.Errorf("To %q: %+v, %v", p.Header.Get("To"), to, err)
		}
	}
	var failed int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE status <> 'sent'`).Scan(&failed); err != nil || failed != 0 {
		t.Fatalf("%d invitations not sent (%v)", failed, err)
	}
}

// TestTextFieldsRefuseNULAndInvalidUTF8 sends a NUL character or invalid
// UTF-8 in every kind of text the JSON API takes: 400 naming the field,
// nothing changed (defect 2: it was a 500 from PostgreSQL, or the bytes
// were silently replaced).
func TestTextFieldsRefuseNULAndInvalidUTF8(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.create(testgame.Name, 2, `{}`)
	g := "/api/v1/games/" + c.ID
	var v viewBody
	e.do("GET", g+"/view", seatToken(c.ID, 0), nil, &v)
	player := func(name, email string) string {
		return `{"game":"count","players":[{"name":"` + name + `","email":"` + email + `"},{"name":"Bob","email":"bob@example.org"}]}`
	}
	version := jsonInt(v.Version)
	cases := []struct{ name, method, path, token, body, field string }{
		{"NUL in a name", "POST", "/api/v1/games", "", player(`A\u0000nn`, "ann@example.org"), "players[0].name"},
		{"invalid UTF-8 in a name", "POST", "/api/v1/games", "", player("A\xffnn", "ann@example.org"), "players[0].name"},
		{"NUL in an email", "POST", "/api/v1/games", "", player("Ann", `ann\u0000@example.org`), "players[0].email"},
		{"NUL in the game", "POST", "/api/v1/games", "", `{"game":"co\u0000unt"}`, "game"},
		{"NUL in an option", "POST", "/api/v1/games", "", `{"game":"count","options":{"x":["a","\u0000"]}}`, "options.x[1]"},
		{"invalid UTF-8 in an option's key", "POST", "/api/v1/games", "", "{\"game\":\"count\",\"options\":{\"\xc3\":1}}", "options: key"},
		{"NUL in the deadline", "POST", "/api/v1/games", "", `{"game":"count","turn_deadline":"\u0000"}`, "turn_deadline"},
		{"NUL in a move's id", "POST", g + "/moves", seatToken(c.ID, 0), `{"version":` + version + `,"move":` + string(v.LegalMoves[0]) + `,"id":"k\u0000"}`, "id"},
		{"NUL in a move", "POST", g + "/moves", seatToken(c.ID, 0), `{"version":` + version + `,"move":{"kind":"play","card":"c\u0000"}}`, "move.card"},
		{"invalid UTF-8 in a move", "POST", g + "/moves", seatToken(c.ID, 0), "{\"version\":" + version + ",\"move\":{\"kind\":\"play\",\"card\":\"c\xfe\"}}", "move.card"},
		{"NUL in extend's by", "POST", g + "/admin/extend", c.AdminToken, `{"by":"1\u0000h"}`, "by"},
		{"NUL in the game id", "GET", "/api/v1/games/%00", "", "", "id"},
		{"invalid UTF-8 in the game id", "GET", "/api/v1/games/%FF/view", seatToken(c.ID, 0), "", "id"},
		{"NUL in the game id of a move", "POST", "/api/v1/games/a%00b/moves", seatToken(c.ID, 0), `{"version":1,"move":{}}`, "id"},
		{"NUL in a query parameter", "GET", g + "?pretty=%00", "", "", "query parameter pretty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var eb errBody
			var body any
			if tc.body != "" {
				body = tc.body
			}
			st := e.do(tc.method, tc.path, tc.token, body, &eb)
			if st != http.StatusBadRequest || eb.Error.Code != "invalid" || !strings.Contains(eb.Error.Message, tc.field) {
				t.Fatalf("got %d %+v, want 400 naming %s", st, eb.Error, tc.field)
			}
		})
	}
	var sm summaryBody
	e.do("GET", g, "", nil, &sm)
	if sm.Version != v.Version {
		t.Fatalf("version %d after refused requests, want %d", sm.Version, v.Version)
	}
}

// TestPageFormsRefuseNULAndInvalidUTF8 does the same through the HTML
// forms and page URLs: a 400 page naming the field.
func TestPageFormsRefuseNULAndInvalidUTF8(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	b := e.browser()
	form, _ := lobbyForm(t, b, "en")
	for field, value := range map[string]string{"name1": "A\x00nn", "email2": "bob\xff@example.org", "organiser_name": "O\x00rg"} {
		f := url.Values{}
		for k, v := range form {
			f[k] = v
		}
		f.Set(field, value)
		p := b.post("/games", f)
		if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, field) {
			t.Errorf("lobby with bad %s: %d\n%s", field, p.Status, p.Body)
		}
	}
	var games int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM games`).Scan(&games); err != nil || games != 0 {
		t.Fatalf("%d games created by refused forms (%v)", games, err)
	}
	id := e.createGame(lords.Name, 2, "en", "")
	seat := e.toMove(id)
	pb := e.browser()
	f := moveForm(t, pb.open(id, seat).Body)
	before := e.version(id)
	if p := pb.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {"{\"type\":\"\x00\"}"}}); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "move") {
		t.Errorf("move with NUL: %d\n%s", p.Status, p.Body)
	}
	if p := pb.get("/play/%00"); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "<html") {
		t.Errorf("page of game %%00: %d\n%s", p.Status, p.Body)
	}
	if e.version(id) != before {
		t.Fatal("a refused form changed the game")
	}
}

// TestAddressesAreComparedWithoutCase offers one address twice with other
// capitals and spaces: 400 naming both players (defect 8).
func TestAddressesAreComparedWithoutCase(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var eb errBody
	st := e.do("POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"Ann","email":"ann@example.org"},`+
		`"players":[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":" ANN@Example.ORG "}]}`, &eb)
	if st != http.StatusBadRequest || !strings.Contains(eb.Error.Message, "players[1].email") || !strings.Contains(eb.Error.Message, "players[0]") {
		t.Fatalf("same address twice: %d %+v", st, eb.Error)
	}
	e.createConfirmed(json.RawMessage(`{"game":"count","organiser":{"name":"Ann","email":"ann@example.org"},` +
		`"players":[{"name":"Ann","email":" ann@example.org"},{"name":"Bob","email":"bob@example.org "}]}`))

	pe := newPageEnv(t)
	b := pe.browser()
	form, _ := lobbyForm(t, b, "en")
	form.Set("email2", "Ann@EXAMPLE.org")
	if p := b.post("/games", form); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "Ann@EXAMPLE.org") {
		t.Fatalf("lobby with the same address twice: %d\n%s", p.Status, p.Body)
	}
}

// postFrom posts a form with extra headers (Origin, Sec-Fetch-Site, Host)
// from browser b.
func postFrom(t *testing.T, b *browser, path string, form url.Values, headers map[string]string) page {
	t.Helper()
	req, err := http.NewRequest("POST", b.e.url+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range headers {
		if k == "Host" {
			// The client's jar goes by the Host it sends: give the
			// browser's cookies by hand, as a forging client would.
			req.Host = v
			for _, ck := range b.jar.Cookies(req.URL) {
				req.AddCookie(ck)
			}
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return read(t, resp)
}

// TestCrossOriginFormsAreRefused posts every state-changing page form as
// another site would make a browser do it: 403, nothing changed; from the
// same origin the forms work (defect 8).
func TestCrossOriginFormsAreRefused(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	crossSite := []map[string]string{
		{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
		{"Sec-Fetch-Site": "same-site", "Origin": "https://sub.example"},
		{"Origin": "https://evil.example"}, // a browser without Sec-Fetch-Site
	}
	sameOrigin := map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": e.url}

	b := e.browser()
	form, _ := lobbyForm(t, b, "en")
	for _, h := range crossSite {
		if p := postFrom(t, b, "/games", form, h); p.Status != http.StatusForbidden {
			t.Errorf("lobby form from %v: %d", h, p.Status)
		}
	}
	var games int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM games`).Scan(&games); err != nil || games != 0 {
		t.Fatalf("%d games created cross-site (%v)", games, err)
	}
	p := postFrom(t, b, "/games", form, sameOrigin)
	if p.Status != http.StatusAccepted {
		t.Fatalf("lobby form from the same origin: %d\n%s", p.Status, p.Body)
	}
	// The admin link goes to the organiser by email: take a confirmed game.
	id := e.createGame("lords-of-scotland", 2, "en", "")

	adm := e.browser()
	adm.get("/admin/" + id + "?token=" + url.QueryEscape(tokens.Admin(secret, id, 0)))
	csrf := moveForm(t, adm.get("/admin/"+id).Body).csrf
	pause := url.Values{"csrf": {csrf}, "action": {"pause"}}
	for _, h := range crossSite {
		if p := postFrom(t, adm, "/admin/"+id, pause, h); p.Status != http.StatusForbidden {
			t.Errorf("admin form from %v: %d", h, p.Status)
		}
	}
	if sm, _ := e.svc.Summary(context.Background(), id); sm.Status != projections.StatusActive {
		t.Fatalf("a cross-site admin form made the game %s", sm.Status)
	}

	seat := e.toMove(id)
	pb := e.browser()
	f := moveForm(t, pb.open(id, seat).Body)
	before := e.version(id)
	move := url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}}
	for _, h := range crossSite {
		if p := postFrom(t, pb, "/play/"+id, move, h); p.Status != http.StatusForbidden {
			t.Errorf("move form from %v: %d", h, p.Status)
		}
	}
	if e.version(id) != before {
		t.Fatal("a cross-site move form changed the game")
	}
	if p := postFrom(t, pb, "/play/"+id, move, sameOrigin); p.Status != http.StatusSeeOther || e.version(id) == before {
		t.Fatalf("move form from the same origin: %d", p.Status)
	}
	if p := postFrom(t, adm, "/admin/"+id, pause, sameOrigin); p.Status != http.StatusSeeOther {
		t.Fatalf("admin form from the same origin: %d", p.Status)
	}
}

// TestAdminLinkIgnoresForgedHost proposes and confirms a game with a
// forged Host header: no answer names the forged host (defect 9). The
// admin link itself is emailed, built on PBEM_PUBLIC_URL by the renderer.
func TestAdminLinkIgnoresForgedHost(t *testing.T) {
	t.Parallel()
	for _, public := range []string{"https://pbem.example.org", ""} {
		e := newPageEnvWith(t, func(pc *api.PageConfig) { pc.PublicURL = public })
		forged := map[string]string{"Host": "evil.example", "X-Forwarded-Host": "evil.example"}
		b := e.browser()
		form, _ := lobbyForm(t, b, "en")
		p := postFrom(t, b, "/games", form, forged)
		if p.Status != http.StatusAccepted || strings.Contains(p.Body, "evil") {
			t.Fatalf("propose from the lobby: %d\n%s", p.Status, p.Body)
		}
		body := `{"game":"lords-of-scotland","organiser":{"name":"Org","email":"org@example.org"},` +
			`"players":[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}]}`
		st, out := forgedPost(t, e.url+"/api/v1/games", body)
		if st != http.StatusAccepted || strings.Contains(out, "evil") {
			t.Fatalf("propose: %d %s", st, out)
		}
		var proposed struct{ ID string }
		if err := json.Unmarshal([]byte(out), &proposed); err != nil || proposed.ID == "" {
			t.Fatalf("propose: %s (%v)", out, err)
		}
		st, out = forgedPost(t, e.url+"/api/v1/confirm/"+tokens.Confirm(secret, proposed.ID), "")
		if st != http.StatusCreated || strings.Contains(out, "evil") {
			t.Fatalf("public URL %q: confirm: %d %s", public, st, out)
		}
	}
}

// forgedPost posts body (JSON, or nothing) to u with a forged Host header and
// returns the status and the answer.
func forgedPost(t *testing.T, u, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "evil.example"
	req.Header.Set("X-Forwarded-Host", "evil.example")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// oldUnsubscribeToken is the first kind of unsubscribe token: the address
// in base64, a dot and an HMAC.
func oldUnsubscribeToken(email string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("unsubscribe\x00"))
	m.Write([]byte(email))
	return base64.RawURLEncoding.EncodeToString([]byte(email)) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// TestUnsubscribeTokensAreOpaque: the link no longer shows the address,
// old-style tokens are refused, and a cross-site form is refused (defect 7).
func TestUnsubscribeTokensAreOpaque(t *testing.T) {
	t.Parallel()
	e := newMailEnv(t, false)
	tok := tokens.Unsubscribe(secret, "ann@example.org")
	if strings.Contains(tok, base64.RawURLEncoding.EncodeToString([]byte("ann@example.org"))[:10]) {
		t.Fatalf("token %q shows the address", tok)
	}
	old := url.QueryEscape(oldUnsubscribeToken("ann@example.org"))
	if code, body := e.request(http.MethodGet, "/mail/unsubscribe?token="+old, "", ""); code != http.StatusBadRequest || strings.Contains(body, "ann@example.org") {
		t.Errorf("old token page: %d\n%s", code, body)
	}
	if code, _ := e.request(http.MethodPost, "/mail/unsubscribe?token="+old, "List-Unsubscribe=One-Click", ""); code != http.StatusBadRequest {
		t.Errorf("old token one-click: %d", code)
	}
	req, _ := http.NewRequest(http.MethodPost, e.url+"/mail/unsubscribe", strings.NewReader("token="+url.QueryEscape(tok)+"&mode=off"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site unsubscribe form: %d", resp.StatusCode)
	}
	if m := e.mode("ann@example.org"); m != notify.Every {
		t.Fatalf("refused requests changed the preference to %s", m)
	}
	if code, _ := e.request(http.MethodPost, "/mail/unsubscribe?token="+url.QueryEscape(tok), "List-Unsubscribe=One-Click", ""); code != http.StatusOK || e.mode("ann@example.org") != notify.Off {
		t.Fatalf("one-click with the new token: %d, %s", code, e.mode("ann@example.org"))
	}
}

var hexID = regexp.MustCompile(`^[0-9a-f]{16}$`)

// TestPanicIsAnInternalErrorAndRequestIDs: echo's Recover answers a
// handler's panic with our JSON internal error and the server goes on;
// echo's RequestID echoes a sane client id and replaces another.
func TestPanicIsAnInternalErrorAndRequestIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := api.New(api.Config{Service: e.svc, Logger: slog.New(slog.DiscardHandler)})
	srv.Echo().GET("/api/v1/boom", func(echo.Context) error { panic("boom") })
	hs := httptest.NewServer(srv)
	defer hs.Close()
	get := func(path, id string) (*http.Response, errBody) {
		req, _ := http.NewRequest(http.MethodGet, hs.URL+path, nil)
		if id != "" {
			req.Header.Set("X-Request-ID", id)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var eb errBody
		_ = json.NewDecoder(resp.Body).Decode(&eb)
		return resp, eb
	}
	resp, eb := get("/api/v1/boom", "")
	if resp.StatusCode != http.StatusInternalServerError || eb.Error.Code != "internal" || eb.Error.Message != "internal error" ||
		!hexID.MatchString(resp.Header.Get("X-Request-ID")) {
		t.Fatalf("panic: %d %+v id %q", resp.StatusCode, eb.Error, resp.Header.Get("X-Request-ID"))
	}
	if resp, _ := get("/healthz", "trace-42"); resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-ID") != "trace-42" {
		t.Fatalf("after the panic: %d, id %q", resp.StatusCode, resp.Header.Get("X-Request-ID"))
	}
	for _, bad := range []string{"two words", strings.Repeat("x", 65), "é"} {
		if resp, _ := get("/healthz", bad); !hexID.MatchString(resp.Header.Get("X-Request-ID")) {
			t.Errorf("client id %q answered with %q", bad, resp.Header.Get("X-Request-ID"))
		}
	}
}
