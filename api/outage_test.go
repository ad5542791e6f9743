package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/engine"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// tcpProxy forwards loopback connections to PostgreSQL until cut: then
// its port refuses connections and the open ones are closed, as when the
// database server goes away. restore listens again on the same port.
type tcpProxy struct {
	t      *testing.T
	addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

func startProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	p := &tcpProxy{t: t, addr: "127.0.0.1:0", target: target}
	p.restore()
	p.addr = p.ln.Addr().String()
	t.Cleanup(p.cut)
	return p
}

func (p *tcpProxy) restore() {
	p.t.Helper()
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, s)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(s, c); s.Close() }()
			go func() { _, _ = io.Copy(c, s); c.Close() }()
		}
	}()
}

func (p *tcpProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// outageEnv is a server (API and pages) whose database connections go
// through a proxy the test can cut.
type outageEnv struct {
	*pageEnv
	proxy *tcpProxy
	dbURL string
}

func newOutageEnv(t *testing.T) *outageEnv {
	t.Helper()
	dbURL := pgtest.NewDB(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := startProxy(t, u.Host)
	u.Host = proxy.addr
	q := u.Query()
	q.Set("connect_timeout", "2")
	u.RawQuery = q.Encode()
	pool, err := pgxpool.New(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	svc := play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: store,
		Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret})
	e := &outageEnv{pageEnv: &pageEnv{t: t, svc: svc, pool: pool, store: store}, proxy: proxy, dbURL: dbURL}
	health := func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		return pool.Ping(ctx)
	}
	e.srv = api.New(api.Config{Service: svc, Health: health,
		Pages: &api.PageConfig{Service: svc, Secret: secret, Poll: time.Second}})
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	e.url = hs.URL
	return e
}

// request sends a request and returns the status, Retry-After and body.
func (e *outageEnv) request(method, path, token, body string) (int, string, string) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	b := read(e.t, resp)
	return b.Status, b.Header.Get("Retry-After"), b.Body
}

const twoPlayers = `{"game":"count","organiser":{"name":"Ann","email":"ann@example.org"},` +
	`"players":[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}]}`

// create proposes and confirms a game of body, as its organiser would
// with the emailed link, and returns the confirmation's status and body.
func (e *outageEnv) create(body string) (int, string) {
	e.t.Helper()
	return proposeAndConfirm(e.t, e.url, body)
}

// TestDatabaseDownAnswers503 cuts the database away under a running
// server: requests answer 503 with Retry-After and the JSON error
// "unavailable" (pages: an HTML page), /healthz says why; once the
// database is back everything works again.
func TestDatabaseDownAnswers503(t *testing.T) {
	t.Parallel()
	e := newOutageEnv(t)
	st, body := e.create(twoPlayers)
	if st != http.StatusCreated {
		t.Fatalf("create: %d %s", st, body)
	}
	var c created
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatal(err)
	}
	if st, _, body := e.request("GET", "/healthz", "", ""); st != 200 || !strings.Contains(body, `"database":"ok"`) {
		t.Fatalf("healthz: %d %s", st, body)
	}

	e.proxy.cut()
	for _, r := range []struct{ method, path, token, body string }{
		{"POST", "/api/v1/games", "", twoPlayers},
		{"GET", "/api/v1/games/" + c.ID, "", ""},
		{"GET", "/api/v1/games/" + c.ID + "/history", seatToken(c.ID, 0), ""},
		{"POST", "/api/v1/games/" + c.ID + "/admin/pause", c.AdminToken, ""},
	} {
		st, retry, body := e.request(r.method, r.path, r.token, r.body)
		var eb errBody
		_ = json.Unmarshal([]byte(body), &eb)
		if st != http.StatusServiceUnavailable || retry != "5" || eb.Error.Code != "unavailable" {
			t.Errorf("%s %s with the database down: %d, Retry-After %q, %s", r.method, r.path, st, retry, body)
		}
	}
	if st, retry, body := e.request("GET", "/play/"+c.ID+"?token="+seatToken(c.ID, 0), "", ""); st != http.StatusServiceUnavailable ||
		retry != "5" || !strings.Contains(body, "<html") {
		t.Errorf("page with the database down: %d, Retry-After %q\n%s", st, retry, body)
	}
	st, retry, body := e.request("GET", "/healthz", "", "")
	if st != http.StatusServiceUnavailable || retry == "" || !strings.Contains(body, `"database":"connection refused"`) {
		t.Errorf("healthz with the database down: %d, Retry-After %q, %s", st, retry, body)
	}

	e.proxy.restore()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, _, body := e.request("GET", "/api/v1/games/"+c.ID, "", "")
		if st == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the database came back: %d %s", st, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st, _, body := e.request("GET", "/healthz", "", ""); st != 200 {
		t.Fatalf("healthz after the database came back: %d %s", st, body)
	}
}

// TestReadOnlyDatabaseAnswers503 makes the database read-only, as a
// standby or a primary in the middle of a failover is: writes answer 503
// with Retry-After, reads still work.
func TestReadOnlyDatabaseAnswers503(t *testing.T) {
	t.Parallel()
	e := newOutageEnv(t)
	st, body := e.create(twoPlayers)
	if st != http.StatusCreated {
		t.Fatalf("create: %d %s", st, body)
	}
	var c created
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, e.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var db string
	if err := admin.QueryRow(ctx, "SELECT current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(ctx, "ALTER DATABASE "+db+" SET default_transaction_read_only = on"); err != nil {
		t.Fatal(err)
	}
	e.pool.Reset() // new connections take the setting
	st, retry, body := e.request("POST", "/api/v1/games/"+c.ID+"/admin/pause", c.AdminToken, "")
	if st != http.StatusServiceUnavailable || retry != "5" || !strings.Contains(body, `"unavailable"`) {
		t.Errorf("write on a read-only database: %d, Retry-After %q, %s", st, retry, body)
	}
	if st, _, body := e.request("GET", "/api/v1/games/"+c.ID, "", ""); st != http.StatusOK || !strings.Contains(body, `"active"`) {
		t.Errorf("read on a read-only database: %d %s", st, body)
	}
}
