package api_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections"
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
	if !strings.Contains(confirm.Body, `<dd id="recap-muster">Non : commencer tout de suite</dd>`) {
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

// TestMusterOrganiserChoicesAndAbort: the organiser's choice per seat
// during the muster. A person replaced must answer afresh (the answer was
// the person's, not the seat's); handing the last silent seat to a bot
// completes the muster and begins the game at once. Under the default
// "abort", a seat that declined ends the game at the muster's deadline,
// everyone is told, and the history says why.
func TestMusterOrganiserChoicesAndAbort(t *testing.T) {
	e := newPageEnv(t)
	ctx := context.Background()
	id, _ := musterGame(t, e, "")
	for seat := range 3 {
		if err := e.svc.AnswerAs(ctx, id, seat, seat != 1, "k"+string(rune('0'+seat))); err != nil {
			t.Fatal(err)
		}
	}
	if sm, _ := e.svc.Summary(ctx, id); sm.Status != "active" || sm.Seats[1].Bot != "normal" {
		t.Fatalf("every seat answered, Bob no: %+v", sm)
	}

	id, admin := musterGame(t, e, "")
	if err := e.svc.AnswerAs(ctx, id, 0, true, "a"); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.AnswerAs(ctx, id, 1, true, "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.ReplacePlayer(ctx, id, admin, 1, "Dee", "dee@example.org"); err != nil {
		t.Fatal(err)
	}
	if m, err := e.svc.MusterOf(ctx, id); err != nil || strings.Join(m.Answers, ",") != "accepted,," {
		t.Fatalf("after Bob's replacement: %+v %v", m, err)
	}
	if err := e.svc.AnswerAs(ctx, id, 1, true, "d"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.SeatBot(ctx, id, admin, 2, "easy"); err != nil {
		t.Fatal(err)
	}
	if sm, _ := e.svc.Summary(ctx, id); sm.Status != "active" || sm.Seats[2].Bot != "easy" {
		t.Fatalf("the organiser handed the last silent seat to a bot: %+v", sm)
	}
	if err := e.svc.AnswerAs(ctx, id, 0, false, "late"); play.ErrorCode(err) != "conflict" {
		t.Fatalf("an answer after the game began: %v", err)
	}

	id, _ = musterGame(t, e, "abort")
	if err := e.svc.AnswerAs(ctx, id, 0, true, "a"); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.AnswerAs(ctx, id, 1, false, "b"); err != nil {
		t.Fatal(err)
	}
	if r, err := schedulerAt(t, e, time.Now().Add(25*time.Hour)).Tick(ctx); err != nil || r.TimedOut != 1 {
		t.Fatalf("the tick at the muster's deadline: %+v %v", r, err)
	}
	sm, err := e.svc.Summary(ctx, id)
	if err != nil || sm.Status != "aborted" {
		t.Fatalf("a muster with abort, Bob declined and Cid silent: %+v %v", sm, err)
	}
	h, err := e.svc.History(ctx, id, tokens.Seat(secret, id, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, x := range h.Events {
		lines = append(lines, x.Summary)
	}
	if all := strings.Join(lines, "\n"); !strings.Contains(all, "Not everyone will play: the game does not begin. Declined: Bob. Never answered: Cid.") {
		t.Errorf("the history of the aborted muster:\n%s", all)
	}
	var kinds []string
	rows, err := e.pool.Query(ctx, `SELECT kind FROM outbox WHERE game_id = $1 AND kind <> 'invitation' ORDER BY id`, id)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, k)
	}
	rows.Close()
	if strings.Join(kinds, ",") != "game_over,game_over,game_over" {
		t.Errorf("the emails of the aborted muster: %v", kinds)
	}
}

// TestMusterNoticeOfTheLastAnswer: the notice after a muster answer tells
// the truth about the game as the page reads it. The first "yes" is told
// the game begins once everyone has answered; the last one, whose answer
// began the game, that it has begun; a last "no" is not offered a change
// of mind that the begun game no longer allows. Each in the seat's
// language, through the page's own form.
func TestMusterNoticeOfTheLastAnswer(t *testing.T) {
	e := newPageEnv(t)
	ctx := context.Background()
	answer := func(id string, seat int, yes string) string {
		t.Helper()
		b := e.browser()
		f := moveForm(t, b.open(id, seat).Body)
		p := b.post("/play/"+id+"/muster", url.Values{"csrf": {f.csrf}, "answer": {yes}})
		if p.Status != http.StatusSeeOther {
			t.Fatalf("answer %s of seat %d: %d %s", yes, seat, p.Status, p.Body)
		}
		loc, _, _ := strings.Cut(p.Header.Get("Location"), "#")
		return b.get(loc).Body
	}
	has := func(what, body string, want, not string) {
		t.Helper()
		body = html.UnescapeString(body)
		if !strings.Contains(body, want) || strings.Contains(body, not) {
			t.Errorf("%s: the page should say %q and not %q", what, want, not)
		}
	}

	id, _ := musterGame(t, e, "")
	has("Ann's first yes", answer(id, 0, "yes"), "The game begins once everyone has answered.", "the game has begun")
	if err := e.svc.AnswerAs(ctx, id, 1, true, "b"); err != nil {
		t.Fatal(err)
	}
	has("Cid's last yes", answer(id, 2, "yes"), "Grazie: giocherai. Tutti hanno risposto: la partita è cominciata.", "comincia appena")
	if sm, _ := e.svc.Summary(ctx, id); sm.Status != projections.StatusActive {
		t.Fatalf("every seat said yes: %+v", sm)
	}

	id, _ = musterGame(t, e, "")
	for _, seat := range []int{0, 2} {
		if err := e.svc.AnswerAs(ctx, id, seat, true, "s"+string(rune('0'+seat))); err != nil {
			t.Fatal(err)
		}
	}
	has("Bob's last no", answer(id, 1, "no"), "C'est noté\u00a0: vous ne jouerez pas.", "changer d'avis")
}
