package api_test

import (
	"context"
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"pbem/api"
	"pbem/projections/testgame"
)

var (
	reProblems = regexp.MustCompile(`(?s)<div class="notice bad problems" id="problems" role="alert"[^>]*>(.*?)</div>`)
	reProblem  = regexp.MustCompile(`<li>(?:<a href="#([^"]+)">)?([^<]*)`)
)

// TestLobbyReportsEveryProblemAtOnce: a lobby form with several problems,
// the service's (a name left out, a bad address, the organiser's address
// left out) and the form's own (an option that is not a number, a deadline
// it cannot read), shows them all at once rather than one per try: each
// right after its field (before the next field), which it describes, and all in one alert above the
// form, each line a link to its field, in the page's language; the form
// keeps what was typed, and nothing is proposed.
func TestLobbyReportsEveryProblemAtOnce(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	b, form := lobbyIn(t, e, "fr")
	form.Set("game", testgame.Name)
	form.Del("opt_bruce")
	form.Set("name1", "")
	form.Set("email2", "bob@")
	form.Set("organiser_email", "")
	form.Set("opt_target", "many")
	form.Set("deadline", "soon")
	p := b.post("/games", form)
	if p.Status != http.StatusBadRequest {
		t.Fatalf("a form with five problems: %d\n%s", p.Status, p.Body)
	}
	(&pageSweep{t: t, lang: "fr"}).check("lobby, five problems", p, http.StatusBadRequest)

	cat := func(key string, args ...any) string { return api.PageCatalog.T("fr", key, args...) }
	field := func(who, what string) string { return cat("lobby.problem_field", who, cat(what)) }
	want := []struct{ href, text string }{
		{"name1", cat("lobby.problem", field(cat("lobby.player", 1), "lobby.name"), cat("lobby.err.name"))},
		{"email2", cat("lobby.problem", field(cat("lobby.player", 2), "lobby.email"), cat("lobby.err.email"))},
		{"f-target", cat("lobby.problem", "Target", cat("lobby.err.number"))},
		{"organiser_email", cat("lobby.problem", field(cat("lobby.organiser"), "lobby.email"), cat("lobby.err.email"))},
		{"", ""}, // the deadline: no field of its own to point to
	}
	m := reProblems.FindStringSubmatch(p.Body)
	if m == nil {
		t.Fatalf("no summary of the problems:\n%s", p.Body)
	}
	if title := cat("lobby.problems", len(want)); !strings.Contains(html.UnescapeString(m[1]), title) {
		t.Errorf("the summary is not titled %q:\n%s", title, m[1])
	}
	got := reProblem.FindAllStringSubmatch(m[1], -1)
	if len(got) != len(want) {
		t.Fatalf("%d problems listed, want %d:\n%s", len(got), len(want), m[1])
	}
	for i, w := range want {
		href, text := got[i][1], html.UnescapeString(got[i][2])
		if href != w.href || (w.text != "" && text != w.text) || text == "" {
			t.Errorf("problem %d: %q to #%s, want %q to #%s", i+1, text, href, w.text, w.href)
		}
		if href == "" {
			continue
		}
		// The link's field exists, is marked, and names its error.
		input := regexp.MustCompile(`<(?:input|select)[^>]* id="` + href + `"[^>]*>`).FindString(p.Body)
		errID := "err-" + strings.Replace(href, "f-", "opt-", 1)
		if !strings.Contains(input, `aria-invalid="true"`) || !strings.Contains(input, errID) ||
			!strings.Contains(p.Body, `<span class="fielderr" id="`+errID+`">`) {
			t.Errorf("problem %d: the field #%s is not marked and described by its error:\n%s", i+1, href, input)
		}
		// The error comes right after its field, before any other field
		// (a user trial found a seat's errors after its language).
		after := p.Body[strings.Index(p.Body, input)+len(input):]
		next := regexp.MustCompile(`<(?:input|select)`).FindStringIndex(after)
		if at := strings.Index(after, `id="`+errID+`"`); at < 0 || (next != nil && next[0] < at) {
			t.Errorf("problem %d: the error of #%s does not follow its field", i+1, href)
		}
	}
	if n := strings.Count(p.Body, `role="alert"`); n != 1 {
		t.Errorf("%d alerts on the page, want the summary alone", n)
	}
	for _, kept := range []string{`value="Bob"`, `value="bob@"`, `value="ann@example.org"`, `value="many"`} {
		if !strings.Contains(p.Body, kept) {
			t.Errorf("the form lost %s", kept)
		}
	}
	var n int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM proposals`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d proposals, %v", n, err)
	}
}

// TestLobbyOptionProblemBesideItsFieldInFrench: the engine's refusal of an
// option starts with the option's key ("target\u00a0: …" in French, with
// the no-break space of French colons); beside the field, whose label
// names it, the key is left out.
func TestLobbyOptionProblemBesideItsFieldInFrench(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	b, form := lobbyIn(t, e, "fr")
	form.Set("game", testgame.Name)
	form.Del("opt_bruce")
	form.Set("opt_target", "5000")
	p := b.post("/games", form)
	if p.Status != http.StatusBadRequest {
		t.Fatalf("a target of 5000: %d\n%s", p.Status, p.Body)
	}
	m := regexp.MustCompile(`<span class="fielderr" id="err-opt-target">([^<]*)</span>`).FindStringSubmatch(p.Body)
	if m == nil {
		t.Fatalf("no error beside the target field:\n%s", p.Body)
	}
	if got, want := html.UnescapeString(m[1]), "indiquez un nombre entier de 1 à 1\u00a0000"; got != want {
		t.Errorf("beside the target field: %q, want %q", got, want)
	}
}
