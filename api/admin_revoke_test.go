package api_test

import (
	"context"
	"net/http"
	"net/url"
	"pbem/events"
	"pbem/events/play/playtest"
	"strings"
	"testing"

	"pbem/events/pbemevent"
	"pbem/events/tokens"
	"pbem/notify/smtpsink"
	"pbem/projections"
)

// pendingMails is the number of game id's emails not sent yet: its
// outbox rows and the your-turn emails its row owes (games.turn_mail).
func (e *pageEnv) pendingMails(id string) int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM `+playtest.MailSQL+` m WHERE game_id = $1 AND status = 'pending'`, id).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// TestAdminLinkRevocation is the leaked admin link of issue #29, tried as
// its holder would: the organiser replaces the link on the admin page;
// the old link, in another browser's cookie, in a fresh ?token= and on the
// JSON API, then gets a 401 that says it was replaced, and changes
// nothing; the new link goes by email to the organiser only (never in an
// answer) and opens the page. A wrong token cannot revoke, and the form
// needs its box ticked.
func TestAdminLinkRevocation(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame("lords-of-scotland", 2, "en", "")
	old := tokens.Admin(secret, id, 0)
	deliverOutbox(t, e.pool, e.url, e.pendingMails(id))

	org, leaked := e.browser(), e.browser()
	for _, b := range []*browser{org, leaked} {
		if p := b.get("/admin/" + id + "?token=" + url.QueryEscape(old)); p.Status != http.StatusSeeOther {
			t.Fatalf("the admin link: %d", p.Status)
		}
	}
	p := org.get("/admin/" + id)
	if p.Status != http.StatusOK || !strings.Contains(p.Body, `value="revoke"`) || !strings.Contains(p.Body, "Replace the admin link") {
		t.Fatalf("the admin page has no control to replace its link: %d\n%s", p.Status, p.Body)
	}
	csrf := moveForm(t, p.Body).csrf
	leakedCSRF := moveForm(t, leaked.get("/admin/"+id).Body).csrf
	version := e.version(id)

	// Nobody else can revoke: a seat's token, a made-up one; nor can the
	// form without its box ticked.
	for _, tok := range []string{seatToken(id, 0), "not-a-token"} {
		e2 := &env{t: t, url: e.url}
		if st := e2.do(http.MethodPost, "/api/v1/games/"+id+"/admin/revoke", tok, nil, nil); st != http.StatusUnauthorized {
			t.Fatalf("revoke with %q: %d", tok, st)
		}
	}
	if p := org.post("/admin/"+id, url.Values{"csrf": {csrf}, "action": {"revoke"}}); p.Status != http.StatusBadRequest {
		t.Fatalf("revoke without the box ticked: %d", p.Status)
	}
	if e.version(id) != version || e.pendingMails(id) != 0 {
		t.Fatal("a refused revocation changed the game or queued an email")
	}

	// The organiser replaces the link.
	p = org.post("/admin/"+id, url.Values{"csrf": {csrf}, "action": {"revoke"}, "confirm": {"yes"}})
	if p.Status != http.StatusOK || !strings.Contains(p.Body, "A new one was emailed to the organiser") {
		t.Fatalf("revoke: %d\n%s", p.Status, p.Body)
	}
	if strings.Contains(p.Body, tokens.Admin(secret, id, 1)) {
		t.Fatal("the answer holds the new admin token")
	}
	if ck := p.Header.Get("Set-Cookie"); !strings.Contains(ck, "pbem_admin=;") || !strings.Contains(ck, "Max-Age=0") {
		t.Errorf("the old admin cookie is not cleared: %q", ck)
	}
	version = e.version(id)

	// The old link, however it comes, is refused with a clear answer and
	// changes nothing.
	if p := leaked.get("/admin/" + id); p.Status != http.StatusUnauthorized || !strings.Contains(p.Body, "replaced by a newer one") {
		t.Fatalf("the old link's cookie: %d\n%s", p.Status, p.Body)
	}
	if p := leaked.post("/admin/"+id, url.Values{"csrf": {leakedCSRF}, "action": {"pause"}}); p.Status != http.StatusUnauthorized {
		t.Fatalf("pause with the old link's cookie: %d", p.Status)
	}
	if p := e.browser().get("/admin/" + id + "?token=" + url.QueryEscape(old)); p.Status != http.StatusUnauthorized || !strings.Contains(p.Body, "replaced by a newer one") {
		t.Fatalf("the old link opened afresh: %d\n%s", p.Status, p.Body)
	}
	api := &env{t: t, url: e.url}
	for _, action := range []string{"pause", "abort", "revoke"} {
		var eb struct {
			Error struct{ Code, Message string }
		}
		if st := api.do(http.MethodPost, "/api/v1/games/"+id+"/admin/"+action, old, nil, &eb); st != http.StatusUnauthorized ||
			eb.Error.Code != events.CodeUnauthorized || !strings.Contains(eb.Error.Message, "revoked") {
			t.Fatalf("%s with the old token: %d %+v", action, st, eb)
		}
	}
	if sm, _ := e.svc.Summary(ctx, id); sm.Version != version || sm.Status != projections.StatusActive {
		t.Fatalf("the old link changed the game: %+v", sm)
	}

	// The new link is emailed to the organiser, and opens the page.
	mails := deliverOutbox(t, e.pool, e.url, e.pendingMails(id))
	var adminMail *smtpsink.Received
	for i := range mails {
		if strings.Contains(string(mails[i].Data), "org@example.org") {
			adminMail = &mails[i]
		}
	}
	if len(mails) != 1 || adminMail == nil {
		t.Fatalf("%d emails after the revocation, want the organiser's one", len(mails))
	}
	msg, err := smtpsink.Parse(adminMail.Data)
	if err != nil {
		t.Fatal(err)
	}
	newTok := tokens.Admin(secret, id, 1)
	if !strings.Contains(msg.Text, "/admin/"+id+"?token="+newTok) || strings.Contains(msg.Text, old) {
		t.Fatalf("the email does not hold the new admin link:\n%s", msg.Text)
	}
	fresh := e.browser()
	if p := fresh.get("/admin/" + id + "?token=" + url.QueryEscape(newTok)); p.Status != http.StatusSeeOther {
		t.Fatalf("the new link: %d", p.Status)
	}
	p = fresh.get("/admin/" + id)
	if p.Status != http.StatusOK {
		t.Fatalf("the new link's page: %d", p.Status)
	}
	if p := fresh.post("/admin/"+id, url.Values{"csrf": {moveForm(t, p.Body).csrf}, "action": {"pause"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("pause with the new link: %d\n%s", p.Status, p.Body)
	}

	// The stream records the revocation (the generation, no token), and
	// the history tells it.
	var data string
	if err := e.pool.QueryRow(ctx, `SELECT data::text FROM events WHERE stream = $1 AND type = $2`, id, pbemevent.TypeAdminLinkRevoked).Scan(&data); err != nil {
		t.Fatal(err)
	}
	if data != `{"token_gen": 1}` && data != `{"token_gen":1}` {
		t.Fatalf("event data %s", data)
	}
	if got := projections.DescribeService(pbemevent.TypeAdminLinkRevoked, nil, nil, "fr"); !strings.Contains(got, "révoqué") {
		t.Fatalf("French history line: %q", got)
	}
}
