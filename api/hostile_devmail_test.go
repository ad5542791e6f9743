package api_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/api"
	"pbem/api/inbound"
	"pbem/engine"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// devMailEnv is a server with the dev mailbox and its reply form, a game,
// and the game's invitation (with its Reply-To) in the mailbox.
type devMailEnv struct {
	svc    *play.Service
	api    *api.Server
	gameID string
	reply  url.Values // the reply form of the invitation: plays a move
	html   string     // the path of the invitation's HTML part
	dev    *notify.DevMailbox
}

func newDevMailEnv(t *testing.T, trustProxy bool) *devMailEnv {
	t.Helper()
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	svc := play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: store, Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret})
	proc, err := inbound.New(inbound.Config{Service: svc, Ledger: notifypg.NewInbound(pool), Domain: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	mb := notifypg.NewMailbox(pool)
	mc := api.MailConfig{Secret: secret, Prefs: notifypg.NewPrefs(pool), Outbox: notifypg.NewOutbox(pool), Service: svc,
		Mailbox: mb, Replies: proc}
	e := &devMailEnv{svc: svc, api: api.New(api.Config{Service: svc, Mail: &mc, TrustProxy: trustProxy})}
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: "http://127.0.0.1", ReplyDomain: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	e.dev = notify.NewDevMailbox(mb, nil)
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(pool), Sender: e.dev, Renderer: r,
		Now: func() time.Time { return time.Now().Add(time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	g, err := svc.Create(ctx, play.CreateGame{Game: testgame.Name, Options: json.RawMessage(`{"target":25}`),
		Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
		Players:   []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	e.gameID = g.ID
	if _, err := w.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	msgs, err := mb.List(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if strings.Contains(m.Text, "\n1. ") && m.Headers["Reply-To"] != "" {
			e.reply = url.Values{"from": {m.To}, "to": {m.Headers["Reply-To"]}, "subject": {m.Subject},
				"in_reply_to": {m.Headers["Message-ID"]}, "text": {"1\n\nchat: hello"}}
			e.html = "/dev/mail/" + strconv.FormatInt(m.ID, 10) + "/html"
		}
	}
	if e.reply == nil {
		t.Fatalf("no email with a list and a Reply-To in %+v", msgs)
	}
	return e
}

// serveOn serves the env's API on a listener of addr ("127.0.0.1:0", or
// a non-loopback address of this machine) and returns its base URL.
func (e *devMailEnv) serveOn(t *testing.T, addr string) string {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(e.api)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	t.Cleanup(hs.Close)
	return hs.URL
}

// version is the game's version.
func (e *devMailEnv) version(t *testing.T) int64 {
	t.Helper()
	sm, err := e.svc.Summary(context.Background(), e.gameID)
	if err != nil {
		t.Fatal(err)
	}
	return sm.Version
}

// nonLoopbackIP returns an address of this machine that is not loopback,
// or "" if it has none.
func nonLoopbackIP(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	return ""
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// devMailRequests are the dev mailbox's routes, as a stranger would send
// them: the list of links, a reply that plays the invitation's move, and
// the invitation's HTML part. headers are added to each.
func devMailRequests(t *testing.T, base string, e *devMailEnv, headers map[string]string) []*http.Request {
	list, err := http.NewRequest(http.MethodGet, base+"/dev/mail", nil)
	if err != nil {
		t.Fatal(err)
	}
	reply, err := http.NewRequest(http.MethodPost, base+"/dev/mail/reply", strings.NewReader(e.reply.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	reply.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	html, err := http.NewRequest(http.MethodGet, base+e.html, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*http.Request{list, reply, html} {
		for k, v := range headers {
			r.Header.Set(k, v)
		}
	}
	return []*http.Request{list, reply, html}
}

// TestHostileDevMailboxOnlyForThisMachine: the dev mailbox (its list, a
// message's HTML part, its reply form) refuses (403, no link shown, no
// move played) a client on another machine, directly or through a trusted
// proxy on this one, and a reply form sent from another site; this
// machine's own browser reads it, with a CSP and no framing.
func TestHostileDevMailboxOnlyForThisMachine(t *testing.T) {
	t.Parallel()
	e := newDevMailEnv(t, false)
	before := e.version(t)
	refused := func(what string, reqs []*http.Request) {
		t.Helper()
		for _, req := range reqs {
			code, _, body := hostileDo(t, req)
			if code != http.StatusForbidden || strings.Contains(body, "token=") {
				t.Errorf("%s: %s %s: %d %.200s, want 403 without links", what, req.Method, req.URL.Path, code, body)
			}
		}
		if v := e.version(t); v != before {
			t.Errorf("%s: the game moved from version %d to %d", what, before, v)
		}
	}

	if ip := nonLoopbackIP(t); ip != "" {
		refused("from "+ip, devMailRequests(t, e.serveOn(t, ip+":0"), e, nil))
	} else {
		t.Log("this machine has no non-loopback address: the direct remote client is not tried")
	}
	local := e.serveOn(t, "127.0.0.1:0")
	refused("from another site", devMailRequests(t, local, e,
		map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})[1:2])

	proxied := newDevMailEnv(t, true)
	proxiedURL := proxied.serveOn(t, "127.0.0.1:0")
	for _, req := range devMailRequests(t, proxiedURL, proxied, map[string]string{"X-Forwarded-For": "198.51.100.7"}) {
		if code, _, _ := hostileDo(t, req); code != http.StatusForbidden {
			t.Errorf("through a proxy for 198.51.100.7: %s %s: %d, want 403", req.Method, req.URL.Path, code)
		}
	}

	req, _ := http.NewRequest(http.MethodGet, local+"/dev/mail", nil)
	code, h, body := hostileDo(t, req)
	if code != http.StatusOK || !strings.Contains(body, "token=") {
		t.Fatalf("GET /dev/mail from this machine: %d %.300s", code, body)
	}
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "frame-ancestors 'none'") ||
		h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("GET /dev/mail: CSP %q, X-Frame-Options %q", csp, h.Get("X-Frame-Options"))
	}
	req, _ = http.NewRequest(http.MethodGet, local+"/mail/unsubscribe?token=nonsense", nil)
	if _, h, _ := hostileDo(t, req); !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Frame-Options") != "DENY" {
		t.Errorf("GET /mail/unsubscribe: CSP %q, X-Frame-Options %q", h.Get("Content-Security-Policy"), h.Get("X-Frame-Options"))
	}
	// This machine's own reply, same-origin, plays the move.
	reply := devMailRequests(t, local, e, map[string]string{"Sec-Fetch-Site": "same-origin"})[1]
	resp, err := noRedirect.Do(reply)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || e.version(t) == before {
		t.Errorf("the reply from this machine: %d, version %d (was %d)", resp.StatusCode, e.version(t), before)
	}
}
