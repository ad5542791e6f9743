package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
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

// TestDevMailboxReplyPlaysTheMove answers an email of the dev mailbox from
// its page, as its recipient would: the move is played through the mail
// listener's code path, and the answer lands in the mailbox.
func TestDevMailboxReplyPlaysTheMove(t *testing.T) {
	t.Parallel()
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
	hs := httptest.NewServer(api.New(api.Config{Service: svc, Mail: &mc}))
	t.Cleanup(hs.Close)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: hs.URL, ReplyDomain: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(pool), Sender: notify.NewDevMailbox(mb, nil), Renderer: r,
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
	if _, err := w.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	msgs, err := mb.List(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var inv notify.StoredMail
	for _, m := range msgs {
		if strings.Contains(m.Text, "\n1. ") {
			inv = m
		}
	}
	if inv.Headers["Reply-To"] == "" {
		t.Fatalf("no email with a list and a Reply-To in %+v", msgs)
	}
	page := get(t, hs.URL+"/dev/mail")
	if !strings.Contains(page, `action="/dev/mail/reply"`) {
		t.Fatal("the dev mailbox shows no reply form")
	}
	form := url.Values{"from": {inv.To}, "to": {inv.Headers["Reply-To"]}, "subject": {inv.Subject},
		"in_reply_to": {inv.Headers["Message-ID"]}, "text": {"1\n\nchat: hello from the dev mailbox"}}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.PostForm(hs.URL+"/dev/mail/reply", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "posted%2Bplayed") {
		t.Fatalf("reply: %s, Location %q", resp.Status, loc)
	}
	sm, err := svc.Summary(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sm.Version != 3 { // created, chat, move
		t.Errorf("version %d after the reply, want 3", sm.Version)
	}
	if _, err := w.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if page := get(t, hs.URL+"/dev/mail?r=x"); !strings.Contains(page, "Your message was sent to the table.") {
		t.Error("the answer is not in the dev mailbox")
	}
	// A forged address is refused and changes nothing.
	form.Set("to", "g-0-x-aaaa@localhost")
	resp, err = c.PostForm(hs.URL+"/dev/mail/reply", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if loc := resp.Header.Get("Location"); !strings.Contains(loc, "refused") {
		t.Errorf("forged: Location %q", loc)
	}
}

func get(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
