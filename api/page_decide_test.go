package api_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"pbem/engine/lords"
)

// reNext is the action bar's "Still to decide:" line and its link.
var reNext = regexp.MustCompile(`<p class="bar-state bar-next">Still to decide: <a href="#(moves-\d+)" class="bar-decide">([^<]+)</a></p>`)

// TestBarNamesTheFollowUpDecision: in Lords of Scotland, a follower
// mustered face up whose clan power applies leaves its player a
// follow-up decision (use the power?). The page that answers the muster
// names that decision in the action bar, "Still to decide:", with a link
// to its moves, which are listed unfolded (one kind of move).
func TestBarNamesTheFollowUpDecision(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for n := 0; n < 30; n++ {
		id := e.createGame(lords.Name, 2, "en", "")
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
		m := reNext.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("after %s the seat still decides, but the action bar does not say what:\n%s", muster, body)
		}
		legend := regexp.MustCompile(`<fieldset id="` + m[1] + `"><legend>([^<]+)</legend>`).FindStringSubmatch(body)
		if legend == nil || legend[1] != m[2] {
			t.Fatalf("the bar names %q and links to #%s, whose legend is %v", m[2], m[1], legend)
		}
		if !strings.Contains(body, `<details class="fold allmoves" id="all-moves" open`) {
			t.Errorf("the follow-up decision's moves are folded")
		}
		t.Logf("after %s: %q", muster, m[0])
		return
	}
	t.Fatal("no deal gave a muster that leaves a decision")
}
