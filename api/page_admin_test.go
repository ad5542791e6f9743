package api_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
)

// adminBrowser opens game id's admin page with its admin link and
// returns a function that posts one of its forms and gives the page the
// answer leads to.
func adminBrowser(t *testing.T, e *pageEnv, id string) (*browser, func(url.Values) string) {
	t.Helper()
	adm := e.browser()
	if r := adm.get("/admin/" + id + "?token=" + tokens.Admin(secret, id, 0)); r.Status != http.StatusSeeOther {
		t.Fatalf("admin link: %d", r.Status)
	}
	csrf := moveForm(t, adm.get("/admin/"+id).Body).csrf
	return adm, func(vals url.Values) string {
		t.Helper()
		vals.Set("csrf", csrf)
		r := adm.post("/admin/"+id, vals)
		if r.Status != http.StatusSeeOther {
			t.Fatalf("%v: %d\n%s", vals, r.Status, r.Body)
		}
		p := adm.get(r.Header.Get("Location"))
		if p.Status != http.StatusOK {
			t.Fatalf("%v: answer page %d", vals, p.Status)
		}
		return p.Body
	}
}

var (
	reAnswer   = regexp.MustCompile(`<p class="notice" role="status" id="answer">([^<]*)</p>`)
	reDeadline = regexp.MustCompile(`<p>[^<]*<time datetime="[^"]+" title="[^"]+">([^<]+)</time></p>`)
	reCell     = regexp.MustCompile(`<td data-label="[^"]*">([^<]*)`)
	reSeatRow  = regexp.MustCompile(`(?s)<tbody class="seat-row" id="seat-(\d)">(.*?)</tbody>`)
)

// answerOf is the admin page's answer, unescaped ("" if none).
func answerOf(body string) string {
	m := reAnswer.FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// TestAdminSeatTableAndAnswers: the admin page lists the seats in a
// table (name, address, person or bot, last visit, awaited since) with
// each seat's actions in its row (the awaited one says so in words), and
// each action answers what it did and who was told, not "Done."; the
// organiser, once they hold a seat, opens its play page from there.
func TestAdminSeatTableAndAnswers(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 3, "en", "")
	e.browser().open(id, 0) // Ann has opened her page; Bob and Cid never did
	adm, act := adminBrowser(t, e, id)

	body := adm.get("/admin/" + id).Body
	rows := reSeatRow.FindAllStringSubmatch(body, -1)
	if len(rows) != 3 {
		t.Fatalf("%d seat rows, want 3:\n%s", len(rows), body)
	}
	awaited := e.toMove(id)
	for i, r := range rows {
		name, email := []string{"Ann", "Bob", "Cid"}[i], []string{"ann@example.org", "bob@example.org", "cid@example.org"}[i]
		row := html.UnescapeString(r[2])
		th := `<th scope="row">` + name + `</th>`
		if i == awaited { // the seat the game awaits says so in words (not a green dot alone)
			th = `<th scope="row">` + name + ` <span class="tomove">to play</span></th>`
		}
		for _, want := range []string{th, email, "a person", `name="action" value="resend"`,
			`name="action" value="email"`, `name="action" value="replace"`, `name="action" value="bot"`, `name="seat" value="` + r[1] + `"`} {
			if !strings.Contains(row, want) {
				t.Errorf("row of %s lacks %q:\n%s", name, want, row)
			}
		}
		if visited := !strings.Contains(row, ">never<"); visited != (i == 0) {
			t.Errorf("row of %s: visited %v, want %v:\n%s", name, visited, i == 0, row)
		}
		if waits := !strings.Contains(row, ">not awaited<"); waits != (i == awaited) {
			t.Errorf("row of %s: awaited %v, want %v (seat %d awaited):\n%s", name, waits, i == awaited, awaited, row)
		}
	}
	if strings.Contains(body, `id="answer"`) {
		t.Errorf("an answer on the page before any action")
	}
	if !strings.Contains(body, "When the game is over, this page offers its audit and a rematch") {
		t.Errorf("the running game's admin page does not tell where the rematch its email promises will be")
	}
	if strings.Contains(body, `id="my-seat"`) || !strings.Contains(body, ">Hand the seat to a bot, for a while or for good<") {
		t.Errorf("the organiser, who holds no seat, is offered one; or the bot's hand-off is not named for what it does")
	}

	// Each answer tells what was done and who was told.
	p := act(url.Values{"action": {"extend"}, "by": {"24h"}})
	dl := reDeadline.FindStringSubmatch(p)
	if dl == nil {
		t.Fatalf("no deadline on the admin page:\n%s", p)
	}
	if got, want := answerOf(p), "Deadline extended to "+html.UnescapeString(dl[1])+"; 3 players were told."; got != want {
		t.Errorf("extend answers %q, want %q", got, want)
	}
	if got, want := answerOf(act(url.Values{"action": {"resend"}, "seat": {"1"}})),
		"A new link was sent to Bob at bob@example.org; the old one no longer works."; got != want {
		t.Errorf("resend answers %q, want %q", got, want)
	}
	p = act(url.Values{"action": {"bot"}, "seat": {"2"}, "level": {"normal"}})
	if got, want := answerOf(p), "The seat of Cid is now played by a bot (normal)."; got != want {
		t.Errorf("bot answers %q, want %q", got, want)
	}
	if row := reSeatRow.FindAllStringSubmatch(p, -1)[2][2]; !strings.Contains(row, "a bot (normal)") || !strings.Contains(row, "Give the seat back to Cid") ||
		strings.Contains(row, `value="resend"`) {
		t.Errorf("Cid's row once a bot plays it:\n%s", row)
	}
	if got, want := answerOf(act(url.Values{"action": {"pause"}})), "The game is paused; 2 players were told."; got != want {
		t.Errorf("pause answers %q, want %q", got, want)
	}
	p = act(url.Values{"action": {"resume"}})
	if dl = reDeadline.FindStringSubmatch(p); dl == nil {
		t.Fatalf("no deadline after the resume:\n%s", p)
	}
	if got, want := answerOf(p), "The game is resumed, the deadline is "+html.UnescapeString(dl[1])+"; 2 players were told."; got != want {
		t.Errorf("resume answers %q, want %q", got, want)
	}
	if got, want := answerOf(act(url.Values{"action": {"bot"}, "seat": {"2"}, "level": {""}})),
		"Cid plays their seat again; a new link was sent to cid@example.org."; got != want {
		t.Errorf("hand-back answers %q, want %q", got, want)
	}
	if got, want := answerOf(act(url.Values{"action": {"email"}, "seat": {"1"}, "email": {"robert@example.org"}})),
		"The address of Bob is now robert@example.org; a new link was sent there, and the old one no longer works."; got != want {
		t.Errorf("correction answers %q, want %q", got, want)
	}
	if got, want := answerOf(act(url.Values{"action": {"replace"}, "seat": {"1"}, "name": {"Dee"}, "email": {"dee@example.org"}})),
		"Dee now holds the seat; their link was sent to dee@example.org."; got != want {
		t.Errorf("replacement answers %q, want %q", got, want)
	}
	// The organiser, once they hold a seat, plays it from the admin page.
	p = act(url.Values{"action": {"email"}, "seat": {"1"}, "email": {"ORG@example.org"}})
	if !strings.Contains(p, `<button type="submit" id="my-seat" class="primary">Play your seat (Dee)</button>`) {
		t.Errorf("the admin page of the organiser holding Dee's seat offers no way to play it:\n%s", p)
	}
	r := adm.post("/admin/"+id, url.Values{"csrf": {moveForm(t, p).csrf}, "action": {"play"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/play/"+id {
		t.Fatalf("play: %d to %q", r.Status, r.Header.Get("Location"))
	}
	if pp := adm.get("/play/" + id); pp.Status != http.StatusOK || !strings.Contains(pp.Body, "You play as Dee.") {
		t.Errorf("the organiser's play page: %d\n%s", pp.Status, pp.Body)
	}
	p = act(url.Values{"action": {"abort"}, "confirm": {"yes"}})
	if got, want := answerOf(p), "The game is aborted; 3 players were told."; got != want {
		t.Errorf("abort answers %q, want %q", got, want)
	}
	for _, want := range []string{`href="/games/` + id + `/audit?lang=en"`, `id="rematch"`, `id="my-seat"`} {
		if !strings.Contains(p, want) {
			t.Errorf("the ended game's admin page lacks %s", want)
		}
	}

	// In French, with the plural of one player.
	fr := e.createGame(lords.Name, 2, "fr", "")
	_, act = adminBrowser(t, e, fr)
	if _, err := e.svc.SeatBot(t.Context(), fr, tokens.Admin(secret, fr, 0), 1, "easy"); err != nil {
		t.Fatal(err)
	}
	if got, want := answerOf(act(url.Values{"action": {"pause"}})), "La partie est en pause\u202f; 1 joueur a été prévenu."; got != want {
		t.Errorf("French pause answers %q, want %q", got, want)
	}
}

// TestAdminGivesBackOnlyASeatAPersonHeld: the admin page offers "Give the
// seat back" only for a seat a bot took over from a person; a seat a bot
// has played since the start has no one to give it back to, so its row
// offers no such button. A hand-back of it all the same (a stale page, a
// forged form) is refused with a 409 in the admin page's language (the
// game's: the organiser's browser asks for none here), naming the seat by
// its player's name, not with the service's English that counts seats
// from 0.
func TestAdminGivesBackOnlyASeatAPersonHeld(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, tc := range []struct{ lang, back, refusal, detail string }{
		{"en", "Give the seat back to Bob", "There is no one to give this seat back to.",
			"A bot has played Robot 1 since the game began: no person ever held that seat."},
		{"fr", "Rendre la place à Bob", "Il n'y a personne à qui rendre cette place.",
			"Un robot joue Robot 1 depuis le début de la partie\u00a0: personne n'a jamais tenu cette place."},
		{"it", "Restituisci il posto a Bob", "Non c'è nessuno a cui restituire questo posto.",
			"Un bot gioca Robot 1 dall'inizio della partita: nessuna persona ha mai tenuto quel posto."},
	} {
		id := botSeatsGame(t, e, tc.lang)
		adm, _ := adminBrowser(t, e, id)
		body := adm.get("/admin/" + id).Body
		rows := reSeatRow.FindAllStringSubmatch(body, -1)
		if len(rows) != 3 {
			t.Fatalf("%s: %d seat rows, want 3:\n%s", tc.lang, len(rows), body)
		}
		giveBack := `name="level" value="">`
		if row := html.UnescapeString(rows[1][2]); !strings.Contains(row, tc.back) || !strings.Contains(row, giveBack) {
			t.Errorf("%s: Bob's seat, taken over by a bot, cannot be given back:\n%s", tc.lang, row)
		}
		if row := html.UnescapeString(rows[2][2]); strings.Contains(row, giveBack) || strings.Contains(row, "Robot 1</button>") {
			t.Errorf("%s: the row of a bot from the start offers to give the seat back:\n%s", tc.lang, row)
		}
		// A bot from the start has no address and never visits: its
		// cells say so with a dash, not an empty "Address:" and "never".
		if cells := reCell.FindAllStringSubmatch(rows[2][2], -1); len(cells) < 3 || cells[0][1] != "—" || cells[2][1] != "—" {
			t.Errorf("%s: the cells of a bot from the start: %q", tc.lang, cells)
		}

		// The hand-back of the bot's seat all the same (a forged form).
		csrf := moveForm(t, body).csrf
		r := adm.post("/admin/"+id, url.Values{"csrf": {csrf}, "action": {"bot"}, "seat": {"2"}, "level": {""}})
		got := html.UnescapeString(r.Body)
		if r.Status != http.StatusConflict {
			t.Errorf("%s: the hand-back of a bot from the start answers %d, want 409", tc.lang, r.Status)
		}
		for _, want := range []string{`<html lang="` + tc.lang + `"`, tc.refusal, tc.detail, `href="/admin/` + id + `"`} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: the refusal lacks %q:\n%s", tc.lang, want, got)
			}
		}
		for _, bad := range []string{"seat 2", "from the start", "hand back to"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s: the refusal says %q:\n%s", tc.lang, bad, got)
			}
		}
		// Neither page leaves English or a developer's string.
		sweep := &pageSweep{t: t, lang: tc.lang}
		sweep.check("admin page with a bot from the start", page{Status: http.StatusOK, Body: body}, http.StatusOK)
		sweep.check("refused hand-back", r, http.StatusConflict)
	}
}

// TestAdminHandOffSentTwiceIsDone: the organiser's form handing a seat to
// a bot, sent twice (a double tap, a page sent again), and the hand-back
// sent twice, each land on the admin page as done the second time, where
// the second answered 409 with the service's English and a seat counted
// from 0 ("seat 1 is already played that way").
func TestAdminHandOffSentTwiceIsDone(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 3, "fr", "")
	_, submit := adminBrowser(t, e, id)
	for _, level := range []string{"easy", ""} {
		for range 2 {
			body := html.UnescapeString(submit(url.Values{"action": {"bot"}, "seat": {"1"}, "level": {level}}))
			if strings.Contains(body, "already played") || strings.Contains(body, "seat 1") {
				t.Fatalf("level %q sent again: %s", level, body)
			}
		}
		sm, err := e.svc.Summary(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if got := sm.Seats[1].Bot; got != level {
			t.Fatalf("seat 1 is played by %q, want %q", got, level)
		}
	}
	// Another conflict is still refused: a level the game does not know.
	adm, _ := adminBrowser(t, e, id)
	csrf := moveForm(t, adm.get("/admin/"+id).Body).csrf
	if r := adm.post("/admin/"+id, url.Values{"csrf": {csrf}, "action": {"bot"}, "seat": {"1"}, "level": {"genius"}}); r.Status != http.StatusBadRequest {
		t.Errorf("an unknown level answers %d, want 400", r.Status)
	}
}

// botSeatsGame creates a Lords of Scotland game in lang of Ann, Bob and a
// bot that has played the third seat since the start; a bot takes Bob's
// seat over. It returns the game's id.
func botSeatsGame(t *testing.T, e *pageEnv, lang string) string {
	t.Helper()
	cg, err := e.svc.Create(t.Context(), play.CreateGame{Game: lords.Name, Language: lang,
		Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Players:   []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}, {Bot: "normal"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.SeatBot(t.Context(), cg.ID, tokens.Admin(secret, cg.ID, 0), 1, "easy"); err != nil {
		t.Fatal(err)
	}
	return cg.ID
}
