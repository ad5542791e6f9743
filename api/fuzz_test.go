package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/api"
	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	notifypg "pbem/notify/postgres"
	"pbem/projections"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// The fuzz tests send mutated JSON bodies and forms to every route that
// takes one, on a real server over a real PostgreSQL, and fail on any
// answer of 500 or more (a panic is recovered as a 500) or a JSON error
// that is not our error body. Their seed corpora are in
// testdata/fuzz/Fuzz*; `go test` runs the seeds, `make test` fuzzes each
// target for a few seconds, and `go test -run '^$' -fuzz '^FuzzAPIJSON$'
// ./api/` fuzzes for as long as you like.
//
// In a body or form, $V stands for the game's current version, $M for the
// first legal move (JSON) of the seat the route plays as, and $G for the
// game's id, so that mutations of a valid request reach the game service
// and the engines, not only the decoders. Successive inputs share one
// game, replaced when an input aborts it, resends a link or ends it.

// fuzzServer is the server under fuzzing and its current game.
type fuzzServer struct {
	url   string
	svc   *play.Service
	ctx   context.Context
	game  string
	admin string
	// csrf are the CSRF tokens of the page forms, by cookie value.
	csrf map[string]string
}

// lobbySession is the fuzz client's lobby cookie.
const lobbySession = "fuzz-lobby-session-0123456789"

func newFuzzServer(f *testing.F) *fuzzServer {
	f.Helper()
	lg, err := lords.New()
	if err != nil {
		f.Fatal(err)
	}
	pool := pgtest.NewPool(f)
	store := evpg.New(pool)
	f.Cleanup(store.Close)
	svc := play.New(play.Config{Games: engine.NewRegistry(lg, bagpipes.Game{}, testgame.Game{}),
		Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(f.Name()), Secret: secret})
	pages := &api.PageConfig{Service: svc, Secret: secret, Notify: store.Notify, Poll: time.Second,
		Failed: notifypg.NewOutbox(pool), PublicURL: "https://pbem.example.org", Logger: slog.New(slog.DiscardHandler)}
	mail := &api.MailConfig{Secret: secret, Prefs: notifypg.NewPrefs(pool), Outbox: notifypg.NewOutbox(pool), Service: svc}
	hs := httptest.NewServer(api.New(api.Config{Service: svc, Pages: pages, Mail: mail, Logger: slog.New(slog.DiscardHandler)}))
	f.Cleanup(hs.Close)
	s := &fuzzServer{url: hs.URL, svc: svc, ctx: context.Background(), csrf: map[string]string{}}
	if err := s.newGame(); err != nil {
		f.Fatal(err)
	}
	return s
}

// newGame replaces the current game with a new Lords of Scotland game
// and reads the CSRF tokens of its forms.
func (s *fuzzServer) newGame() error {
	cg, err := s.svc.Create(s.ctx, play.CreateGame{Game: lords.Name, Language: "en",
		Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
		Players:   []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		return err
	}
	s.game, s.admin = cg.ID, cg.AdminToken
	for _, pg := range []struct {
		path string
		ck   *http.Cookie
	}{
		{"/", s.cookie("lobby")},
		{"/play/" + s.game, s.cookie("seat0")},
		{"/play/" + s.game, s.cookie("seat1")},
		{"/admin/" + s.game, s.cookie("admin")},
	} {
		st, body, err := s.send(http.MethodGet, pg.path, "", nil, pg.ck)
		if err != nil || st != http.StatusOK {
			return fmt.Errorf("GET %s: %d %v", pg.path, st, err)
		}
		s.csrf[pg.ck.Value] = moveFormCSRF(body)
	}
	return nil
}

// moveFormCSRF is the CSRF token of a page's form.
func moveFormCSRF(body string) string {
	if m := reCSRF.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// fuzzClient bounds a request: one that hangs fails the input.
var fuzzClient = &http.Client{Timeout: 20 * time.Second}

// send makes a request; ctype is the body's type ("" for none).
func (s *fuzzServer) send(method, path, ctype string, body []byte, ck *http.Cookie, header ...string) (int, string, error) {
	req, err := http.NewRequest(method, s.url+path, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if ck != nil {
		req.AddCookie(ck)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := fuzzClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// fill replaces $V, $M (seat's first legal move) and $G in b.
func (s *fuzzServer) fill(b []byte, seat int, escape func(string) string) []byte {
	if !bytes.Contains(b, []byte("$")) {
		return b
	}
	v, err := playtest.SeatView(s.ctx, s.svc, secret, s.game, seat)
	version, move := "0", "{}"
	if err == nil {
		version = strconv.FormatInt(v.Version, 10)
		if len(v.LegalMoves) > 0 {
			if mb, err := json.Marshal(v.LegalMoves[0]); err == nil {
				move = string(mb)
			}
		}
	}
	r := strings.NewReplacer("$V", escape(version), "$M", escape(move), "$G", escape(s.game))
	return []byte(r.Replace(string(b)))
}

// refresh starts a new game when the current one can take no more moves
// or its seat links were replaced.
func (s *fuzzServer) refresh(t *testing.T) {
	sm, err := s.svc.Summary(s.ctx, s.game)
	stale := err != nil || sm.Status != projections.StatusActive
	if err == nil && !stale {
		_, verr := s.svc.View(s.ctx, s.game, seatToken(s.game, 0))
		_, verr1 := s.svc.View(s.ctx, s.game, seatToken(s.game, 1))
		stale = verr != nil || verr1 != nil
	}
	if stale {
		if err := s.newGame(); err != nil {
			t.Fatal(err)
		}
	}
}

// pathOf puts the game id, or the fuzzed one when useID, in a route path.
func (s *fuzzServer) pathOf(pattern string, id string, useID bool) string {
	if !useID {
		id = s.game
	}
	return strings.ReplaceAll(pattern, ":id", url.PathEscape(id))
}

// checkAnswer fails on a 5xx, or on a JSON error that is not ours.
func checkAnswer(t *testing.T, what string, status int, body string, jsonErrors bool) {
	t.Helper()
	if status >= 500 || status == 0 {
		t.Fatalf("%s: %d\n%s", what, status, body)
	}
	if jsonErrors && status >= 400 {
		var eb errBody
		if json.Unmarshal([]byte(body), &eb) != nil || eb.Error.Code == "" || eb.Error.Message == "" {
			t.Fatalf("%s: %d, not an error body: %s", what, status, body)
		}
	}
}

// jsonRoutes are the JSON API's routes that take a body, with the token
// they are sent with and the seat their $M plays as.
var jsonRoutes = []struct {
	path  string
	token func(s *fuzzServer) string
	seat  int
}{
	{"/api/v1/games", func(*fuzzServer) string { return "" }, 0},
	{"/api/v1/games/:id/moves", func(s *fuzzServer) string { return seatToken(s.game, 0) }, 0},
	{"/api/v1/games/:id/moves", func(s *fuzzServer) string { return seatToken(s.game, 1) }, 1},
	{"/api/v1/games/:id/admin/resend", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/games/:id/admin/extend", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/games/:id/admin/pause", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/games/:id/admin/resume", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/games/:id/admin/abort", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/games/:id/admin/seat", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/games/:id/admin/email", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/games/:id/admin/replace", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/games/:id/admin/rematch", func(s *fuzzServer) string { return s.admin }, 0},
	{"/api/v1/confirm/:id", func(*fuzzServer) string { return "" }, 0},
	{"/api/v1/signin", func(*fuzzServer) string { return "" }, 0},
	{"/api/v1/signin/:id", func(*fuzzServer) string { return "" }, 0},
	{"/api/v1/games/:id/takeback", func(s *fuzzServer) string { return seatToken(s.game, 0) }, 0},
}

// FuzzAPIJSON posts fuzzed JSON bodies to every JSON route (route picks
// one; with useID the fuzzed id replaces the game's in the path).
func FuzzAPIJSON(f *testing.F) {
	s := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, route uint8, useID bool, id string, body []byte) {
		s.refresh(t)
		r := jsonRoutes[int(route)%len(jsonRoutes)]
		path := s.pathOf(r.path, id, useID)
		b := s.fill(body, r.seat, func(v string) string { return v })
		st, resp, err := s.send(http.MethodPost, path, "application/json", b, nil, "Authorization", "Bearer "+r.token(s))
		if err != nil {
			t.Fatalf("POST %s %q: %v", path, b, err)
		}
		checkAnswer(t, "POST "+path+" "+strconv.Quote(string(b)), st, resp, true)
	})
}

// formRoutes are the page and mail routes: the forms that POST, and the
// pages whose query the fuzzer writes. Each has the cookie it is sent
// with (by kind) and the seat its $M plays as.
var formRoutes = []struct {
	method, path, cookie string
	seat                 int
}{
	{http.MethodPost, "/games", "lobby", 0},
	{http.MethodPost, "/play/:id", "seat0", 0},
	{http.MethodPost, "/play/:id", "seat1", 1},
	{http.MethodPost, "/admin/:id", "admin", 0},
	{http.MethodPost, "/mail/unsubscribe", "", 0},
	{http.MethodGet, "/", "lobby", 0},
	{http.MethodGet, "/play/:id", "seat0", 0},
	{http.MethodGet, "/play/:id/history", "seat1", 1},
	{http.MethodGet, "/admin/:id", "admin", 0},
	{http.MethodGet, "/games/:id/audit", "", 0},
	{http.MethodGet, "/mail/unsubscribe", "", 0},
	{http.MethodPost, "/play/:id/chat", "seat0", 0},
	{http.MethodPost, "/confirm/:id", "", 0},
	{http.MethodPost, "/signin", "lobby", 0},
	{http.MethodPost, "/signin/:id", "", 0},
	{http.MethodPost, "/me/signout", "lobby", 0},
	{http.MethodPost, "/mail/block", "", 0},
	{http.MethodGet, "/confirm/:id", "", 0},
	{http.MethodGet, "/signin", "lobby", 0},
	{http.MethodGet, "/me", "lobby", 0},
	{http.MethodGet, "/mail/block", "", 0},
	{http.MethodPost, "/play/:id/takeback", "seat0", 0},
	{http.MethodPost, "/play/:id?confirm=ask", "seat0", 0},
}

// rawQuery percent-encodes only what cannot travel in a URL's query as
// is (control characters, spaces, '#', bytes above 0x7e), so that the
// server sees the fuzzer's other bytes, malformed escapes included.
func rawQuery(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		if c <= ' ' || c >= 0x7f || c == '#' {
			fmt.Fprintf(&sb, "%%%02X", c)
			continue
		}
		sb.WriteByte(c)
	}
	return sb.String()
}

// cookie is the cookie of a route's kind for the current game.
func (s *fuzzServer) cookie(kind string) *http.Cookie {
	switch kind {
	case "lobby":
		return &http.Cookie{Name: "pbem_lobby", Value: lobbySession}
	case "seat0":
		return &http.Cookie{Name: "pbem_seat", Value: seatToken(s.game, 0)}
	case "seat1":
		return &http.Cookie{Name: "pbem_seat", Value: seatToken(s.game, 1)}
	case "admin":
		return &http.Cookie{Name: "pbem_admin", Value: s.admin}
	}
	return nil
}

// FuzzPageForms sends fuzzed forms (POST) and queries (GET) to every page
// and mail route. A POST gets the session's valid csrf, version and
// unsubscribe token appended, which the fuzzed fields come before (and so
// win over).
func FuzzPageForms(f *testing.F) {
	s := newFuzzServer(f)
	f.Fuzz(func(t *testing.T, route uint8, useID bool, id string, form string) {
		s.refresh(t)
		r := formRoutes[int(route)%len(formRoutes)]
		path := s.pathOf(r.path, id, useID)
		ck := s.cookie(r.cookie)
		b := s.fill([]byte(form), r.seat, url.QueryEscape)
		var st int
		var resp string
		var err error
		if r.method == http.MethodGet {
			st, resp, err = s.send(http.MethodGet, path+"?"+rawQuery(b), "", nil, ck)
		} else {
			extra := url.Values{"token": {tokens.Unsubscribe(secret, "ann@example.org")}}
			if ck != nil {
				extra.Set("csrf", s.csrf[ck.Value])
			}
			if v, verr := playtest.SeatView(s.ctx, s.svc, secret, s.game, r.seat); verr == nil {
				extra.Set("version", strconv.FormatInt(v.Version, 10))
			}
			body := append(append(b, '&'), extra.Encode()...)
			st, resp, err = s.send(http.MethodPost, path, "application/x-www-form-urlencoded", body, ck)
		}
		if err != nil {
			t.Fatalf("%s %s %q: %v", r.method, path, b, err)
		}
		checkAnswer(t, r.method+" "+path+" "+strconv.Quote(string(b)), st, resp, false)
	})
}
