package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/engine/lords"
)

// postFetch posts a form as app.js does (the header X-Pbem-Fetch) from an
// Italian browser, and says whether the answer came compressed.
func (b *browser) postFetch(path string, form url.Values) (page, bool) {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodPost, b.e.url+path, strings.NewReader(form.Encode()))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Pbem-Fetch", "1")
	req.Header.Set("Accept-Language", "it-IT,it;q=0.9")
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	return read(b.t, resp), resp.Uncompressed
}

// TestPageFetchPostAnswersThePage: a move form posted with X-Pbem-Fetch
// is answered 200 with the play page a GET of the redirect's URL shows
// (compressed, its URL in Content-Location), and without the header 303 as
// before; a stale or illegal move gets the page with the same translated
// notice as the redirect's page, a take-back, a move to confirm and a chat
// line answer the same way, and a refused form (CSRF) is the same error
// page with its status, nothing changed.
func TestPageFetchPostAnswersThePage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "it", `{}`)
	seat := e.untilUndoable(id)
	b := e.browser()
	p := b.open(id, seat)
	f := moveForm(t, p.Body)
	undoable := reUndoable.FindAllStringSubmatch(p.Body, -1)
	if len(undoable) == 0 {
		t.Fatal("no move that can be taken back on the page")
	}
	mv := htmlUnescape(undoable[0][1])
	before := e.version(id)

	// A refused form: the error page, nothing played.
	refused, _ := b.postFetch("/play/"+id, url.Values{"csrf": {"forged"}, "version": {f.version}, "move": {mv}})
	if refused.Status != http.StatusForbidden || !strings.Contains(refused.Body, `class="notice bad"`) ||
		!strings.Contains(refused.Body, "Questo modulo è scaduto") || refused.Header.Get("Content-Location") != "" {
		t.Fatalf("forged CSRF by fetch: %d, Content-Location %q\n%s", refused.Status, refused.Header.Get("Content-Location"), refused.Body)
	}
	// An illegal move: the page with the notice, nothing played.
	illegal, _ := b.postFetch("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {`{"type":"fly"}`}})
	if illegal.Status != http.StatusOK || illegal.Header.Get("Content-Location") != "/play/"+id+"?n=illegal" ||
		!strings.Contains(illegal.Body, "Questa mossa non è possibile ora") {
		t.Fatalf("illegal move by fetch: %d, Content-Location %q", illegal.Status, illegal.Header.Get("Content-Location"))
	}
	if e.version(id) != before {
		t.Fatal("a refused or illegal move changed the game")
	}

	// The move: 200 and the fresh page, as the redirect's GET shows it.
	played, gzipped := b.postFetch("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {mv}})
	after := e.version(id)
	if played.Status != http.StatusOK || played.Header.Get("Content-Location") != "/play/"+id+"?n=played" || after == before {
		t.Fatalf("move by fetch: %d, Content-Location %q, version %d (was %d)", played.Status, played.Header.Get("Content-Location"), after, before)
	}
	if !gzipped {
		t.Error("the page answering a move came uncompressed")
	}
	if ct := played.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("Content-Type %q", ct)
	}
	if !strings.Contains(played.Body, `data-version="`+num(after)+`"`) || !strings.Contains(played.Body, "La tua mossa è stata giocata.") ||
		!strings.Contains(played.Body, `action="/play/`+id+`/takeback"`) {
		t.Fatalf("the answer to a move is not the fresh page with its notice and take-back:\n%s", played.Body)
	}
	if got := b.get("/play/" + id + "?n=played"); got.Body != played.Body {
		t.Error("the answer to a move differs from the page a GET of its URL shows")
	}

	// The take-back, by fetch.
	tf := moveForm(t, played.Body[strings.Index(played.Body, `class="takeback"`):])
	back, _ := b.postFetch("/play/"+id+"/takeback", url.Values{"csrf": {tf.csrf}, "version": {tf.version}})
	if back.Status != http.StatusOK || back.Header.Get("Content-Location") != "/play/"+id+"?n=takenback" ||
		!strings.Contains(back.Body, "La tua mossa è stata ritirata.") || e.version(id) != after+1 {
		t.Fatalf("take-back by fetch: %d, Content-Location %q, version %d", back.Status, back.Header.Get("Content-Location"), e.version(id))
	}

	// A stale page: the fresh page with the notice, nothing played.
	now := e.version(id)
	stale, _ := b.postFetch("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {mv}})
	if stale.Status != http.StatusOK || stale.Header.Get("Content-Location") != "/play/"+id+"?n=stale" ||
		!strings.Contains(stale.Body, "La partita è andata avanti") || !strings.Contains(stale.Body, `data-version="`+num(now)+`"`) || e.version(id) != now {
		t.Fatalf("stale move by fetch: %d, Content-Location %q, version %d (was %d)", stale.Status, stale.Header.Get("Content-Location"), e.version(id), now)
	}

	// A move that cannot be taken back: the first tap shows it to confirm
	// (a page of its own: no Content-Location), nothing played.
	f = moveForm(t, stale.Body)
	final := reFinal.FindAllStringSubmatch(stale.Body, -1)
	if len(final) == 0 {
		t.Fatal("no move to confirm on the page")
	}
	ask, _ := b.postFetch("/play/"+id+"?confirm=ask", url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {htmlUnescape(final[0][1])}})
	if ask.Status != http.StatusOK || ask.Header.Get("Content-Location") != "" || !strings.Contains(ask.Body, `id="confirm-move"`) || e.version(id) != now {
		t.Fatalf("first tap by fetch: %d, Content-Location %q, version %d (was %d)", ask.Status, ask.Header.Get("Content-Location"), e.version(id), now)
	}

	// A chat line: the page, without the redirect's #table-talk.
	chat, _ := b.postFetch("/play/"+id+"/chat", url.Values{"csrf": {f.csrf}, "text": {"ciao a tutti"}})
	if chat.Status != http.StatusOK || chat.Header.Get("Content-Location") != "/play/"+id+"?n=chat" ||
		!strings.Contains(chat.Body, "Il tuo messaggio è stato inviato al tavolo.") || !strings.Contains(chat.Body, "ciao a tutti") {
		t.Fatalf("chat by fetch: %d, Content-Location %q", chat.Status, chat.Header.Get("Content-Location"))
	}

	// Without the header, every one of them is a 303 as before.
	for _, tc := range []struct {
		path string
		form url.Values
		to   string
	}{
		{"/play/" + id, url.Values{"csrf": {f.csrf}, "version": {"1"}, "move": {mv}}, "/play/" + id + "?n=stale"},
		{"/play/" + id + "/takeback", url.Values{"csrf": {f.csrf}, "version": {tf.version}}, "/play/" + id + "?n=takeback_late"},
		{"/play/" + id + "/chat", url.Values{"csrf": {f.csrf}, "text": {"ancora"}}, "/play/" + id + "?n=chat#table-talk"},
	} {
		if got := b.post(tc.path, tc.form); got.Status != http.StatusSeeOther || got.Header.Get("Location") != tc.to {
			t.Errorf("POST %s without the header: %d to %q, want 303 to %q", tc.path, got.Status, got.Header.Get("Location"), tc.to)
		}
	}
}
