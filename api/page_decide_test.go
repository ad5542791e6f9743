package api_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"pbem/engine/lords"
)

// stillToDecide is the action bar's "Still to decide:" in each language.
var stillToDecide = map[string]string{"en": "Still to decide:", "fr": "Encore à décider\u00a0:", "it": "Ancora da decidere:"}

// reNext is the action bar's "Still to decide:" line in lang and its link.
func reNext(lang string) *regexp.Regexp {
	return regexp.MustCompile(`<p class="bar-state bar-next">` + regexp.QuoteMeta(stillToDecide[lang]) + ` <a href="#(moves-\d+)" class="bar-decide">([^<]+)</a></p>`)
}

// TestBarNamesTheFollowUpDecision: in Lords of Scotland, a follower
// mustered face up whose clan power applies leaves its player a
// follow-up decision (use the power?). The page that answers the muster
// names that decision in the action bar, "Still to decide:", with a link
// to its moves, which are listed unfolded (one kind of move); in English,
// French and Italian. The deals come from the test's fixed seeds: the
// same games every run.
func TestBarNamesTheFollowUpDecision(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, lang := range []string{"en", "fr", "it"} {
		if !barNamesFollowUp(t, e, lang) {
			t.Errorf("%s: no deal gave a muster that leaves a decision", lang)
		}
	}
}

// barNamesFollowUp deals Lords of Scotland games in lang until the first
// seat can muster face up a follower whose power leaves it a decision,
// plays that muster by the page and checks the bar of the answer; it
// reports whether a deal gave such a muster.
func barNamesFollowUp(t *testing.T, e *pageEnv, lang string) bool {
	t.Helper()
	for n := 0; n < 30; n++ {
		id := e.createGame(lords.Name, 2, lang, "")
		seat := e.toMove(id)
		b := e.browser()
		f := moveForm(t, b.open(id, seat).Body)
		var muster string
		for _, m := range f.moves {
			if strings.Contains(m, `"type":"muster"`) && strings.Contains(m, `"face_up":true`) {
				muster = m
				break
			}
		}
		if muster == "" {
			continue
		}
		r := b.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {muster}})
		if r.Status != 303 {
			t.Fatalf("muster: %d", r.Status)
		}
		if e.toMove(id) != seat {
			continue // no power to use: the turn passed
		}
		body := b.get(r.Header.Get("Location")).Body
		m := reNext(lang).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: after %s the seat still decides, but the action bar does not say what:\n%s", lang, muster, body)
		}
		legend := regexp.MustCompile(`<fieldset id="` + m[1] + `"><legend>([^<]+)</legend>`).FindStringSubmatch(body)
		if legend == nil || legend[1] != m[2] {
			t.Fatalf("%s: the bar names %q and links to #%s, whose legend is %v", lang, m[2], m[1], legend)
		}
		if !strings.Contains(body, `<details class="fold allmoves" id="all-moves" open`) {
			t.Errorf("%s: the follow-up decision's moves are folded", lang)
		}
		t.Logf("%s: after %s: %q", lang, muster, m[0])
		return true
	}
	return false
}
