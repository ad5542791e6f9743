package api_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"pbem/engine/lords"
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
// each seat's actions in its row, and each action answers what it did and
// who was told, not "Done.".
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
		for _, want := range []string{`<th scope="row">` + name + `</th>`, email, "a person", `name="action" value="resend"`,
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
	if got, want := answerOf(act(url.Values{"action": {"abort"}, "confirm": {"yes"}})), "The game is aborted; 3 players were told."; got != want {
		t.Errorf("abort answers %q, want %q", got, want)
	}

	// In French, with the plural of one player.
	fr := e.createGame(lords.Name, 2, "fr", "")
	_, act = adminBrowser(t, e, fr)
	if _, err := e.svc.SeatBot(t.Context(), fr, tokens.Admin(secret, fr, 0), 1, "easy"); err != nil {
		t.Fatal(err)
	}
	if got, want := answerOf(act(url.Values{"action": {"pause"}})), "La partie est en pause ; 1 joueur a été prévenu."; got != want {
		t.Errorf("French pause answers %q, want %q", got, want)
	}
}
