package api_test

import (
	"context"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
)

// TestFinishedPageNamesTheWinnerAndTellsTheRounds: the play page of a
// finished game, in both games, opens its result with a headline naming
// the winner and what decided the ranking (engine.State.Standings), shows
// the round-by-round table under the final one (from round 1: no "round
// 0" column, issue #43), offers to play again, and
// has no action bar (its region is empty). It shows no empty section, and
// says that no one wrote to the table when no one did.
func TestFinishedPageNamesTheWinnerAndTellsTheRounds(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, c := range []struct {
		name    string
		players int
	}{{"lords-of-scotland", 2}, {"swords-and-bagpipes", 3}} {
		t.Run(c.name, func(t *testing.T) {
			id := e.createGame(c.name, c.players, "en", "")
			e.playToEnd(id, 11, 5000)
			sm, err := e.svc.Summary(context.Background(), id)
			if err != nil || sm.Result == nil || sm.Result.Summary == "" {
				t.Fatalf("the game did not end with a summary: %v", err)
			}
			p := e.browser().open(id, 0)
			body := html.UnescapeString(p.Body)
			winner := sm.Result.Ranking[0].Name
			if m := regexp.MustCompile(`<p class="headline" id="headline">([^<]*)</p>`).FindStringSubmatch(body); m == nil || !strings.Contains(m[1], winner+" wins") {
				t.Errorf("no headline naming the winner %s on the page: %v", winner, m)
			}
			// No action bar: nothing is pending at the end, the result is
			// told above, and a bar fixed at the bottom of a phone's screen
			// covered "Play again". Its region stays, empty, for the live
			// update that ends the game to take the bar away.
			if !strings.Contains(body, `<div id="action-bar" data-live></div>`) || strings.Contains(body, `class="actionbar"`) {
				t.Error("the page of an ended game has an action bar, or no empty region for it")
			}
			rounds := body[strings.Index(body, `id="rounds"`)+1:]
			if !strings.Contains(body, `id="rounds"`) || strings.Count(rounds[:strings.Index(rounds, "</table>")], "<tr>") < c.players+1 {
				t.Error("no round-by-round table with a row per player")
			}
			if head := strings.ToLower(rounds[:strings.Index(rounds, "</thead>")]); strings.Contains(head, " 0</th>") || !strings.Contains(head, " 1</th>") {
				t.Errorf("the round-by-round table's columns start at round 1, not round 0:\n%s", head)
			}
			if !strings.Contains(body, `id="rematch"`) {
				t.Error("no play-again (rematch) button")
			}
			// No empty section, nothing "yet" at the end (issue #45's user
			// trial: an empty "Supporters" heading, an empty "Table talk"
			// without its form, "No followers yet.").
			if _, sup, ok := strings.Cut(body, `id="h-supporters"`); ok && !strings.Contains(sup[:strings.Index(sup, "</section>")], `<li class="card`) {
				t.Error(`an empty "Supporters" section`)
			}
			if _, talk, ok := strings.Cut(body, `id="table-talk"`); !ok || !strings.Contains(talk[:strings.Index(talk, "</section>")], "No one wrote to the table.") {
				t.Error(`the "Table talk" section of an ended game without messages does not say so`)
			}
			if strings.Contains(body, " yet.") {
				t.Error(`the page of an ended game says "yet"`)
			}
		})
	}
}

var reAuditLink = regexp.MustCompile(`href="([^"]*/games/[^"]*/audit[^"]*)"`)

// TestAuditLinksKeepThePagesLanguage: the links to an ended game's audit
// from the play page (the result's and the links under the board), the
// history page and the admin page carry the page's language (?lang=), as
// the rules' link does, so the audit opens in the language its reader
// was reading; without it, it opened in the game's (English here) for a
// player who reads French or Italian.
func TestAuditLinksKeepThePagesLanguage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	cg, err := e.svc.Create(context.Background(), play.CreateGame{Game: lords.Name, Language: "en",
		Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org", Language: "fr"}, {Name: "Bob", Email: "bob@example.org", Language: "it"},
			{Name: "Cid", Email: "cid@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := cg.ID
	e.playToEnd(id, 11, 5000)
	follow := func(what, lang string, body string, want int) {
		t.Helper()
		links := reAuditLink.FindAllStringSubmatch(body, -1)
		if len(links) != want {
			t.Errorf("%s (%s): %d links to the audit, want %d", what, lang, len(links), want)
		}
		for _, l := range links {
			href := html.UnescapeString(l[1])
			if href != "/games/"+id+"/audit?lang="+lang {
				t.Errorf("%s (%s) links the audit as %q, without the page's language", what, lang, href)
			}
			p := e.browser().get(href)
			if p.Status != http.StatusOK || !strings.Contains(p.Body, `<html lang="`+lang+`"`) {
				t.Errorf("%s (%s): the audit it links is not in %s (%d)", what, lang, lang, p.Status)
			}
		}
	}
	for seat, lang := range []string{"fr", "it", "en"} {
		b := e.browser()
		p := b.open(id, seat)
		if !strings.Contains(p.Body, `<html lang="`+lang+`"`) {
			t.Fatalf("seat %d's page is not in %s", seat, lang)
		}
		follow("play page", lang, p.Body, 2)
		follow("history page", lang, b.get("/play/"+id+"/history").Body, 1)
	}
	adm := e.browser()
	if r := adm.get("/admin/" + id + "?token=" + tokens.Admin(secret, id, 0)); r.Status != http.StatusSeeOther {
		t.Fatalf("admin link: %d", r.Status)
	}
	for _, lang := range []string{"fr", "it", "en"} {
		follow("admin page", lang, adm.get("/admin/"+id+"?lang="+lang).Body, 1)
	}
}
