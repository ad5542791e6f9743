package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/engine"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/projections/outbox"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

type mailEnv struct {
	t    *testing.T
	url  string
	pool *pgxpool.Pool
	svc  *play.Service
}

func newMailEnv(t *testing.T, devMailbox bool) *mailEnv {
	t.Helper()
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	svc := play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: store,
		Repo: postgres.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Seeds: playtest.Seeds(t.Name()), Secret: secret})
	mc := api.MailConfig{Secret: secret, Prefs: notifypg.NewPrefs(pool), Outbox: notifypg.NewOutbox(pool), Service: svc,
		MailGrace: 2 * time.Minute}
	if devMailbox {
		mc.Mailbox = notifypg.NewMailbox(pool)
	}
	hs := httptest.NewServer(api.New(api.Config{Service: svc, Mail: &mc}))
	t.Cleanup(hs.Close)
	return &mailEnv{t: t, url: hs.URL, pool: pool, svc: svc}
}

func (e *mailEnv) request(method, path, body, token string) (int, string) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.url+path, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (e *mailEnv) mode(email string) notify.Mode {
	e.t.Helper()
	m, err := notifypg.NewPrefs(e.pool).Modes(context.Background(), []string{email})
	if err != nil {
		e.t.Fatal(err)
	}
	if m[email] == "" {
		return notify.Every
	}
	return m[email]
}

func TestUnsubscribeGetShowsAFormAndChangesNothing(t *testing.T) {
	t.Parallel()
	e := newMailEnv(t, false)
	tok := url.QueryEscape(tokens.Unsubscribe(secret, "Ann@Example.org"))
	for _, lang := range []string{"en", "fr", "it", "xx"} {
		code, body := e.request(http.MethodGet, "/mail/unsubscribe?token="+tok+"&lang="+lang, "", "")
		if code != http.StatusOK || !strings.Contains(body, `<form method="post"`) || !strings.Contains(body, "ann@example.org") {
			t.Fatalf("GET %s: %d\n%s", lang, code, body)
		}
		if !strings.Contains(body, `value="every" checked`) {
			t.Errorf("current mode not shown:\n%s", body)
		}
	}
	_, fr := e.request(http.MethodGet, "/mail/unsubscribe?token="+tok+"&lang=fr", "", "")
	if !strings.Contains(fr, "Préférences") {
		t.Errorf("French page not in French:\n%s", fr)
	}
	if e.mode("ann@example.org") != notify.Every {
		t.Error("a GET changed the preference")
	}
	if code, _ := e.request(http.MethodGet, "/mail/unsubscribe?token=bogus.token", "", ""); code != http.StatusBadRequest {
		t.Errorf("bad token: %d", code)
	}
}

func TestUnsubscribeOneClickPostAndForm(t *testing.T) {
	t.Parallel()
	e := newMailEnv(t, false)
	tok := url.QueryEscape(tokens.Unsubscribe(secret, "ann@example.org"))
	// RFC 8058: the mail provider POSTs List-Unsubscribe=One-Click to the URL.
	if code, _ := e.request(http.MethodPost, "/mail/unsubscribe?token="+tok, "List-Unsubscribe=One-Click", ""); code != http.StatusOK {
		t.Fatalf("one-click: %d", code)
	}
	if m := e.mode("ann@example.org"); m != notify.Off {
		t.Fatalf("after one-click: %s", m)
	}
	// The page's form: token in the body, a mode.
	code, body := e.request(http.MethodPost, "/mail/unsubscribe?lang=it", "token="+tok+"&mode=digest", "")
	if code != http.StatusOK || !strings.Contains(body, "Salvato") {
		t.Fatalf("form: %d\n%s", code, body)
	}
	if m := e.mode("ann@example.org"); m != notify.DailyDigest {
		t.Fatalf("after the form: %s", m)
	}
	if code, _ := e.request(http.MethodPost, "/mail/unsubscribe?token="+tok, "mode=sometimes", ""); code != http.StatusBadRequest {
		t.Errorf("bad mode: %d", code)
	}
	forged := url.QueryEscape(tokens.Unsubscribe([]byte("other secret"), "bob@example.org"))
	if code, _ := e.request(http.MethodPost, "/mail/unsubscribe?token="+forged, "List-Unsubscribe=One-Click", ""); code != http.StatusBadRequest {
		t.Errorf("forged token: %d", code)
	}
	if m := e.mode("bob@example.org"); m != notify.Every {
		t.Errorf("a forged token changed bob's preference to %s", m)
	}
}

func TestFailedEmailsForTheAdminOnly(t *testing.T) {
	t.Parallel()
	e := newMailEnv(t, false)
	ctx := context.Background()
	g, err := e.svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: testgame.Name, Options: json.RawMessage(`{"target":25}`),
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.pool.Exec(ctx, `UPDATE outbox SET status = 'failed', attempts = 8, last_error = '550 no such user' WHERE seat = 1`); err != nil {
		t.Fatal(err)
	}
	path := "/api/v1/games/" + g.ID + "/admin/failed-emails"
	code, body := e.request(http.MethodGet, path, "", g.AdminToken)
	var got struct {
		Failed []notify.FailedEmail `json:"failed"`
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil || code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	if len(got.Failed) != 1 || got.Failed[0].To != "bob@example.org" || got.Failed[0].LastError != "550 no such user" || got.Failed[0].Kind != outbox.Invitation {
		t.Fatalf("failed = %+v", got.Failed)
	}
	if strings.Contains(body, "token") {
		t.Errorf("failed emails leak a token: %s", body)
	}
	if code, _ := e.request(http.MethodGet, path, "", tokens.Seat(secret, g.ID, 0, 0)); code != http.StatusForbidden {
		t.Errorf("a seat token: %d", code)
	}
	if code, _ := e.request(http.MethodGet, path, "", ""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d", code)
	}
}

// TestDevMailboxListsMessagesWithClickableLinks: the dev mailbox lists
// the emails with their links clickable, and says how long the emails of
// a move wait (PBEM_MAIL_GRACE).
func TestDevMailboxListsMessagesWithClickableLinks(t *testing.T) {
	t.Parallel()
	e := newMailEnv(t, true)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: e.url})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := json.Marshal(outbox.Payload{To: outbox.Recipient{Name: "Ann", Email: "ann@example.org"}, Language: "en",
		Game: outbox.GameInfo{ID: "g1", Name: "lords-of-scotland", Players: []string{"Ann", "Bob"}}})
	m, err := r.Render(notify.Row{ID: 1, GameID: "g1", Kind: outbox.YourTurn, Payload: p})
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	dev := notify.NewDevMailbox(notifypg.NewMailbox(e.pool), slogTo(&logs))
	if errs := dev.Send(context.Background(), []*notify.Message{m}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	code, body := e.request(http.MethodGet, "/dev/mail", "", "")
	if code != http.StatusOK {
		t.Fatalf("%d %s", code, body)
	}
	// A new user waits for an email minutes after a move: the page says why.
	if want := "Emails wait 2 minutes after a move before they go, so that a move taken back is not emailed; PBEM_MAIL_GRACE sets it."; !strings.Contains(body, want) {
		t.Errorf("the dev mailbox does not say %q:\n%s", want, body)
	}
	link := r.PlayLink("g1", 0, 0)
	if !strings.Contains(body, `<a href="`+strings.ReplaceAll(link, "&", "&amp;")+`">`) || !strings.Contains(body, m.Subject) {
		t.Errorf("no clickable play link in:\n%s", body)
	}
	tok := tokens.Seat(secret, "g1", 0, 0)
	if !strings.Contains(logs.String(), "dev mail") || strings.Contains(logs.String(), tok) || strings.Contains(logs.String(), "token=") {
		t.Errorf("log line: %q", logs.String())
	}
	// Without the dev mailbox the route does not exist.
	if code, _ := newMailEnv(t, false).request(http.MethodGet, "/dev/mail", "", ""); code != http.StatusNotFound {
		t.Errorf("/dev/mail without dev mode: %d", code)
	}
}

// TestDevMailboxShowsTheHTMLPartSandboxed: each message of the dev
// mailbox with an HTML part links to it, and that page is the part byte
// for byte, as the players' mail clients get it, served as email is shown:
// in a sandbox (Content-Security-Policy: sandbox, no script source at
// all), not framed, without a referrer. An unknown message, or one with no
// HTML part, is a 404, and the list offers no link to it.
func TestDevMailboxShowsTheHTMLPartSandboxed(t *testing.T) {
	t.Parallel()
	e := newMailEnv(t, true)
	ctx := context.Background()
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: e.url})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := json.Marshal(outbox.Payload{To: outbox.Recipient{Name: "Ann", Email: "ann@example.org"}, Language: "fr",
		Game: outbox.GameInfo{ID: "g1", Name: "lords-of-scotland", Players: []string{"Ann", "Bob"}}})
	m, err := r.Render(notify.Row{ID: 1, GameID: "g1", Kind: outbox.YourTurn, Payload: p})
	if err != nil {
		t.Fatal(err)
	}
	textOnly := &notify.Message{From: "pbem@localhost", To: "bob@example.org", Subject: "text only", Text: "Hello", MessageID: "t@localhost"}
	mb := notifypg.NewMailbox(e.pool)
	if errs := notify.NewDevMailbox(mb, slogTo(io.Discard)).Send(ctx, []*notify.Message{m, textOnly}); errs[0] != nil || errs[1] != nil {
		t.Fatal(errs)
	}
	msgs, err := mb.List(ctx, 2)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("%d messages, %v", len(msgs), err)
	}
	withHTML, without := fmt.Sprintf("/dev/mail/%d/html", msgs[1].ID), fmt.Sprintf("/dev/mail/%d/html", msgs[0].ID)
	_, list := e.request(http.MethodGet, "/dev/mail", "", "")
	if !strings.Contains(list, `<a href="`+withHTML+`">`) || strings.Contains(list, without) {
		t.Errorf("the list does not link to the HTML part of the one message that has one:\n%s", list)
	}

	req, _ := http.NewRequest(http.MethodGet, e.url+withHTML, nil)
	code, h, body := hostileDo(t, req)
	if code != http.StatusOK || body != m.HTML || !strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		t.Fatalf("GET %s: %d %q, want the HTML part:\n%s", withHTML, code, h.Get("Content-Type"), body)
	}
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"sandbox;", "default-src 'none'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("the HTML part's CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "script-src") || strings.Contains(csp, "allow-scripts") || h.Get("X-Frame-Options") != "DENY" ||
		h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("the HTML part's headers: %v", h)
	}
	for _, path := range []string{without, "/dev/mail/999999/html", "/dev/mail/nope/html", "/dev/mail/-1/html"} {
		if code, body := e.request(http.MethodGet, path, "", ""); code != http.StatusNotFound {
			t.Errorf("GET %s: %d %s, want 404", path, code, body)
		}
	}
}
