package api_test

import (
	"context"
	"encoding/json"
	"html"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/notify/smtpsink"
)

// playUntil plays the legal moves a generator seeded with seed picks,
// through the service, until some seat's view satisfies want, and
// returns that seat (it fails after limit moves). The game was dealt
// from the test's own seed stream (playtest.Seeds), so the moves and the view
// reached are the same in every run: a scripted game, not a hope.
func (e *pageEnv) playUntil(id string, seed uint64, limit int, want func(v *play.View) bool) int {
	e.t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 11))
	for n := 0; n <= limit; n++ {
		sm, err := e.svc.Summary(ctx, id)
		if err != nil {
			e.t.Fatal(err)
		}
		for seat := range sm.Seats {
			v, err := playtest.SeatView(ctx, e.svc, secret, id, seat)
			if err != nil {
				e.t.Fatal(err)
			}
			if want(v) {
				e.t.Logf("game %s: seat %d has the view wanted after %d moves", id, seat, n)
				return seat
			}
		}
		seat := e.toMove(id)
		if seat < 0 {
			break
		}
		e.playRandomMove(id, seat, rng)
	}
	e.t.Fatalf("game %s: no view as wanted after %d moves", id, limit)
	return -1
}

// hasKind is a view filter: the seat's explanations include kind.
func hasKind(kind string) func(v *play.View) bool {
	return func(v *play.View) bool {
		return slices.ContainsFunc(v.Explanations, func(x engine.Explanation) bool { return x.Kind == kind })
	}
}

// explainTitle and helpTitle are the explanation block's heading and a
// help page's title in each language, as the catalogs write them.
var (
	explainTitle = map[string]string{"en": "How the rules apply now", "fr": "Ce que dit la règle ici", "it": "Cosa dice la regola qui"}
	helpTitle    = map[string]string{"en": "%s: the rules in short", "fr": "%s\u00a0: les règles en bref", "it": "%s: le regole in breve"}
	gameTitle    = map[string]string{lords.Name: "Lords of Scotland", bagpipes.Name: "Swords and Bagpipes"}
	reHelpLink   = regexp.MustCompile(`href="(/help/[a-z-]+\?lang=[a-z]+)"`)
)

// TestPageShowsExplanationsAndHelp: for each game and language, the play
// page of a seat shows the engine's explanations for that seat (a blocked
// Lords power, the round's scores on the claim screen, the shield and
// Scotland's camp) under the heading in the page's language, and links
// the game's help page in that language, which opens.
func TestPageShowsExplanationsAndHelp(t *testing.T) {
	e := newPageEnv(t)
	for _, c := range []struct {
		game    string
		players int
		kind    string
	}{
		{lords.Name, 3, lords.ExplainPowerBlocked},
		{lords.Name, 4, lords.ExplainRoundScore},
		{bagpipes.Name, 4, bagpipes.ExplainShield},
		{bagpipes.Name, 3, bagpipes.ExplainBattle},
	} {
		for i, lang := range []string{"en", "fr", "it"} {
			id := e.createGame(c.game, c.players, lang, "")
			seat := e.playUntil(id, uint64(i+1), 400, hasKind(c.kind))
			v, err := playtest.SeatView(context.Background(), e.svc, secret, id, seat)
			if err != nil {
				t.Fatal(err)
			}
			body := html.UnescapeString(e.browser().open(id, seat).Body)
			block := between(body, `<section class="explain"`, `</section>`)
			if !strings.Contains(block, explainTitle[lang]) {
				t.Errorf("%s %s: no explanation heading in:\n%s", c.game, lang, body)
			}
			for _, x := range v.Explanations {
				if !strings.Contains(block, "<li>"+x.Text+"</li>") {
					t.Errorf("%s %s seat %d: the page lacks the explanation %q in:\n%s", c.game, lang, seat, x.Text, block)
				}
			}
			m := reHelpLink.FindStringSubmatch(body)
			if m == nil || m[1] != "/help/"+c.game+"?lang="+lang {
				t.Fatalf("%s %s: help link %v", c.game, lang, m)
			}
			help := e.browser().get(m[1])
			title := strings.Replace(helpTitle[lang], "%s", gameTitle[c.game], 1)
			if help.Status != http.StatusOK || !strings.Contains(html.UnescapeString(help.Body), "<h1>"+title+"</h1>") {
				t.Errorf("%s %s: help page %d:\n%s", c.game, lang, help.Status, help.Body)
			}
		}
	}
}

// between is the part of s from the first start to the next end ("" if
// absent).
func between(s, start, end string) string {
	i := strings.Index(s, start)
	if i < 0 {
		return ""
	}
	j := strings.Index(s[i:], end)
	if j < 0 {
		return ""
	}
	return s[i : i+j]
}

// TestHelpPages: each game's help page exists in each language, chosen by
// ?lang= or the browser's Accept-Language, with its four parts (the Lords
// clan powers as a list of nine) and no English part title in French or
// Italian; an unknown game is not found.
func TestHelpPages(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	english := []string{"The goal", "A round", "Scoring", "Clan powers", "Cards", "The end"}
	for _, name := range []string{lords.Name, bagpipes.Name} {
		for _, lang := range []string{"en", "fr", "it"} {
			p := e.browser().get("/help/" + name + "?lang=" + lang)
			body := html.UnescapeString(p.Body)
			title := strings.Replace(helpTitle[lang], "%s", gameTitle[name], 1)
			if p.Status != http.StatusOK || !strings.Contains(body, "<h1>"+title+"</h1>") || !strings.Contains(body, `<html lang="`+lang+`">`) {
				t.Fatalf("%s %s: %d\n%s", name, lang, p.Status, body)
			}
			if n := strings.Count(body, "<h2 "); n != 4 {
				t.Errorf("%s %s: %d parts, want 4", name, lang, n)
			}
			if n := strings.Count(body, "<li>"); name == lords.Name && (n != 9 || !strings.Contains(body, "<li>Forsyth ")) {
				t.Errorf("%s %s: %d clan powers listed, want 9", name, lang, n)
			}
			for _, w := range english {
				if lang != "en" && strings.Contains(body, ">"+w+"</h2>") {
					t.Errorf("%s %s: English title %q", name, lang, w)
				}
			}
		}
	}
	req, err := http.NewRequest(http.MethodGet, e.url+"/help/"+bagpipes.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Language", "it-IT,it;q=0.9,en;q=0.5")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if p := read(t, resp); p.Status != http.StatusOK || !strings.Contains(p.Body, `<html lang="it">`) {
		t.Errorf("Accept-Language it: %d, %.200s", p.Status, p.Body)
	}
	if p := e.browser().get("/help/no-such-game?lang=fr"); p.Status != http.StatusNotFound {
		t.Errorf("unknown game: %d", p.Status)
	}
}

// TestInvitationLinksTheHelpPage: the invitations, sent through a real
// SMTP conversation, carry the game's help link in the game's language
// (text and HTML), and the link opens that help page.
func TestInvitationLinksTheHelpPage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, c := range []struct{ game, lang string }{{lords.Name, "fr"}, {bagpipes.Name, "it"}, {lords.Name, "en"}} {
		e.createGame(c.game, 2, c.lang, "")
		got := deliverOutbox(t, e.pool, e.url, 2)
		want := e.url + "/help/" + c.game + "?lang=" + c.lang
		for _, m := range got {
			p, err := smtpsink.Parse(m.Data)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.Text, want) || !strings.Contains(p.HTML, `href="`+want+`"`) {
				t.Fatalf("%s %s: the invitation lacks %s:\n%s\n%s", c.game, c.lang, want, p.Text, p.HTML)
			}
		}
		p := e.browser().get(strings.TrimPrefix(want, e.url))
		title := strings.Replace(helpTitle[c.lang], "%s", gameTitle[c.game], 1)
		if p.Status != http.StatusOK || !strings.Contains(html.UnescapeString(p.Body), title) {
			t.Errorf("%s: %d", want, p.Status)
		}
	}
}

// TestViewCarriesExplanations: GET /api/v1/games/{id}/view gives the
// seat's explanations in the game's language, as the page shows them.
func TestViewCarriesExplanations(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(bagpipes.Name, 4, "fr", "")
	req, err := http.NewRequest(http.MethodGet, e.url+"/api/v1/games/"+id+"/view", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tokens.Seat(secret, id, 1, 0))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Explanations []engine.Explanation `json:"explanations"`
	}
	err = json.NewDecoder(resp.Body).Decode(&v)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("view: %s, %v", resp.Status, err)
	}
	i := slices.IndexFunc(v.Explanations, func(x engine.Explanation) bool { return x.Kind == bagpipes.ExplainShield })
	if i < 0 || !strings.HasPrefix(v.Explanations[i].Text, "La carte de l'armée anglaise, ") {
		t.Errorf("explanations %q", v.Explanations)
	}
}
