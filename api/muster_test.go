package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/tokens"
)

// TestMusterOnTheSetupForm: the lobby offers the muster, 48 hours and a
// bot for a silent seat selected; the form proposes a game with the muster
// chosen (24 hours, abort), which the organiser's confirmation page
// tells in words, and a form without the field (an older page) proposes
// none; a bad muster is refused beside nothing and creates nothing. A
// play-page form answers the muster; an answer other than yes or no is
// refused.
func TestMusterOnTheSetupForm(t *testing.T) {
	e := newPageEnv(t)
	b, form := lobbyIn(t, e, "en")
	lobby := b.get("/?lang=en")
	if !strings.Contains(lobby.Body, `<option value="48h" selected>`) || !strings.Contains(lobby.Body, `<option value="bot" selected>`) ||
		!strings.Contains(lobby.Body, `id="muster"`) {
		t.Fatalf("the lobby's muster:\n%s", lobby.Body)
	}
	form.Set("muster", "24h")
	form.Set("muster_default", "abort")
	if p := b.post("/games", form); p.Status != http.StatusAccepted {
		t.Fatalf("propose with a muster: %d\n%s", p.Status, p.Body)
	}
	var pid string
	if err := e.pool.QueryRow(context.Background(), `SELECT id FROM proposals ORDER BY created_at DESC LIMIT 1`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	confirm := b.get("/confirm/" + tokens.Confirm(secret, pid) + "?lang=en")
	if !strings.Contains(confirm.Body, `<dd id="recap-muster">Wait for every player to accept: 24 hours · A player who says no or does not answer cancels the game</dd>`) {
		t.Errorf("the confirmation page's muster:\n%s", confirm.Body)
	}
	form.Del("muster")
	form.Del("muster_default")
	if p := b.post("/games", form); p.Status != http.StatusAccepted {
		t.Fatalf("propose without a muster field: %d", p.Status)
	}
	if err := e.pool.QueryRow(context.Background(), `SELECT id FROM proposals ORDER BY created_at DESC LIMIT 1`).Scan(&pid); err != nil {
		t.Fatal(err)
	}
	confirm = b.get("/confirm/" + tokens.Confirm(secret, pid) + "?lang=fr")
	if !strings.Contains(confirm.Body, `<dd id="recap-muster">Non : commencer tout de suite</dd>`) {
		t.Errorf("the confirmation page without a muster:\n%s", confirm.Body)
	}
	form.Set("muster", "5m")
	if p := b.post("/games", form); p.Status == http.StatusAccepted {
		t.Fatalf("a muster of 5 minutes was proposed")
	}

	id, _ := musterGame(t, e, "")
	seat := e.browser()
	seat.get("/play/" + id + "?token=" + url.QueryEscape(tokens.Seat(secret, id, 1, 0)))
	page := seat.get("/play/" + id)
	if page.Status != http.StatusOK || !strings.Contains(page.Body, `id="muster-yes"`) {
		t.Fatalf("Bob's page during the muster: %d\n%s", page.Status, page.Body)
	}
	csrf := moveForm(t, page.Body).csrf
	if p := seat.post("/play/"+id+"/muster", url.Values{"csrf": {csrf}, "answer": {"maybe"}}); p.Status != http.StatusBadRequest {
		t.Fatalf("answer maybe: %d", p.Status)
	}
	if p := seat.post("/play/"+id+"/muster", url.Values{"csrf": {"forged"}, "answer": {"yes"}}); p.Status == http.StatusSeeOther {
		t.Fatalf("a forged form answered: %d", p.Status)
	}
	if p := seat.post("/play/"+id+"/muster", url.Values{"csrf": {csrf}, "answer": {"yes"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("answer yes: %d", p.Status)
	}
	if m, err := e.svc.MusterOf(context.Background(), id); err != nil || m.Answers[1] != play.AnswerAccepted || m.Answers[0] != play.AnswerNone {
		t.Fatalf("the muster after Bob's yes: %+v %v", m, err)
	}
}
