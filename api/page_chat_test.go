package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/projections/testgame"
)

// TestPageChatIsEscapedAndSeenByTheOtherSeat writes to the table from the
// play page: the line shows, escaped, on the other seat's page; an empty
// or forged post changes nothing; the writer's page says beside the form
// what became of the line.
func TestPageChatIsEscapedAndSeenByTheOtherSeat(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(testgame.Name, 2, "en", `{"target":25}`)
	ann := e.browser()
	f := moveForm(t, ann.open(id, 0).Body)
	v := e.version(id)
	for _, bad := range []url.Values{
		{"csrf": {"forged"}, "text": {"hi"}},
		{"csrf": {f.csrf}, "text": {"   "}},
		{"csrf": {f.csrf}, "text": {strings.Repeat("x", 501)}},
	} {
		ann.post("/play/"+id+"/chat", bad)
	}
	if e.version(id) != v {
		t.Fatal("a refused chat post changed the game")
	}
	p := ann.post("/play/"+id+"/chat", url.Values{"csrf": {f.csrf}, "text": {"<script>alert(1)</script> good luck"}})
	if p.Status != http.StatusSeeOther || e.version(id) != v+1 {
		t.Fatalf("chat post: %d, version %d", p.Status, e.version(id))
	}
	// Without script too, the page the post leads to says beside the form
	// that the line was sent, with the latest lines unfolded; a refused
	// line is told there too.
	sent := ann.get(p.Header.Get("Location")).Body
	if !strings.Contains(sent, `class="chat-status" role="status" aria-live="polite" data-announce>Your message was sent to the table.</p>`) ||
		!strings.Contains(sent, `id="chat-lines" data-wide-open open>`) {
		t.Errorf("after the post, the page does not say beside the form that the line was sent, its lines unfolded")
	}
	refused := ann.post("/play/"+id+"/chat", url.Values{"csrf": {f.csrf}, "text": {" "}})
	if body := ann.get(refused.Header.Get("Location")).Body; !strings.Contains(body, `class="chat-status bad" role="status" aria-live="polite" data-announce>Your message was not sent`) {
		t.Errorf("after a refused post, the page does not say so beside the form")
	}
	bob := e.browser().open(id, 1).Body
	if strings.Contains(bob, "<script>alert(1)</script>") || !strings.Contains(bob, "&lt;script&gt;alert(1)&lt;/script&gt; good luck") {
		t.Errorf("the other seat's page does not show the line escaped")
	}
}
