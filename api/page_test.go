package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

func TestPageTokenIsSwappedForAScopedCookie(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	b := e.browser()
	p := b.get("/play/" + id + "?token=" + tokens.Seat(secret, id, 0, 0) + "&x=1")
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/play/"+id+"?x=1" {
		t.Fatalf("token URL: %d to %q", p.Status, p.Header.Get("Location"))
	}
	ck := p.Header.Get("Set-Cookie")
	for _, want := range []string{"pbem_seat=", "Path=/play/" + id, "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(ck, want) {
			t.Errorf("Set-Cookie %q lacks %q", ck, want)
		}
	}
	if strings.Contains(ck, "Secure") {
		t.Errorf("Secure cookie over plain http: %q", ck)
	}
	if p.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("Referrer-Policy %q", p.Header.Get("Referrer-Policy"))
	}
	p = b.get("/play/" + id)
	if p.Status != http.StatusOK {
		t.Fatalf("page: %d\n%s", p.Status, p.Body)
	}
	csp := p.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q", csp)
	}
	if p.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("Referrer-Policy %q", p.Header.Get("Referrer-Policy"))
	}
	if strings.Contains(p.Body, "<script>") || strings.Contains(p.Body, " style=") {
		t.Error("inline script or style in the page")
	}
	for _, want := range []string{"Your hand", "You play as Ann.", "Recruits", "Army of Bob", "Supporters", `class="card back"`} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := len(reRank.FindAllString(p.Body, -1)); n < 6 {
		t.Errorf("%d cards shown, want the hand (6) and more", n)
	}
	// The cookie opens only this game's pages: another game's page asks for a link.
	other := e.createGame(lords.Name, 2, "en", "")
	if p := b.get("/play/" + other); p.Status != http.StatusUnauthorized {
		t.Errorf("other game with this cookie: %d", p.Status)
	}
}

func TestPageBadTokenIsAFriendly401(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "fr", "")
	b := e.browser()
	for _, path := range []string{"/play/" + id + "?token=nope", "/play/" + id, "/play/nosuchgame?token=x", "/admin/" + id + "?token=nope"} {
		p := b.get(path)
		if p.Status != http.StatusUnauthorized && p.Status != http.StatusNotFound {
			t.Errorf("%s: %d", path, p.Status)
		}
		if !strings.Contains(p.Header.Get("Content-Type"), "text/html") || !strings.Contains(p.Body, "<h1>") {
			t.Errorf("%s: not an HTML page: %s", path, p.Body)
		}
		if strings.Contains(p.Header.Get("Set-Cookie"), "pbem_seat=nope") {
			t.Errorf("%s: a bad token was stored", path)
		}
	}
	if p := b.get("/play/" + id + "?token=nope"); !strings.Contains(p.Body, "link") {
		t.Errorf("401 page does not explain: %s", p.Body)
	}
}

func TestPageMoveNeedsTheCSRFToken(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	seat := e.toMove(id)
	b := e.browser()
	f := moveForm(t, b.open(id, seat).Body)
	if f.csrf == "" || f.version == "" || len(f.moves) == 0 {
		t.Fatalf("form: %+v", f)
	}
	before := e.version(id)
	for _, csrf := range []string{"", "forged", moveForm(t, e.browser().open(id, 1-seat).Body).csrf} {
		p := b.post("/play/"+id, url.Values{"csrf": {csrf}, "version": {f.version}, "move": {f.moves[0]}})
		if p.Status != http.StatusForbidden {
			t.Errorf("csrf %q: %d", csrf, p.Status)
		}
	}
	if e.version(id) != before {
		t.Fatal("a refused POST changed the game")
	}
	// And a POST with no cookie at all is refused too.
	if p := e.browser().post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}}); p.Status != http.StatusUnauthorized {
		t.Errorf("no cookie: %d", p.Status)
	}
	if e.version(id) != before {
		t.Fatal("a refused POST changed the game")
	}
	p := b.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/play/"+id+"?n=played" {
		t.Fatalf("move: %d to %q", p.Status, p.Header.Get("Location"))
	}
	if e.version(id) == before {
		t.Fatal("the move was not played")
	}
	if p := b.get("/play/" + id + "?n=played"); !strings.Contains(p.Body, "Your move was played.") {
		t.Error("no confirmation after the move")
	}
}

func TestPageStaleVersionShowsTheFreshState(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "it", "")
	seat := e.toMove(id)
	b := e.browser()
	f := moveForm(t, b.open(id, seat).Body)
	// Another tab plays first.
	b2 := e.browser()
	f2 := moveForm(t, b2.open(id, seat).Body)
	if p := b2.post("/play/"+id, url.Values{"csrf": {f2.csrf}, "version": {f2.version}, "move": {f2.moves[len(f2.moves)-1]}}); p.Status != http.StatusSeeOther {
		t.Fatalf("first move: %d", p.Status)
	}
	after := e.version(id)
	p := b.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}})
	if p.Status != http.StatusSeeOther || !strings.HasSuffix(p.Header.Get("Location"), "?n=stale") {
		t.Fatalf("stale move: %d to %q", p.Status, p.Header.Get("Location"))
	}
	if e.version(id) != after {
		t.Fatal("a stale move was played")
	}
	page := b.get(p.Header.Get("Location"))
	if !strings.Contains(page.Body, "La partita è andata avanti") {
		t.Errorf("no 'moved on' notice:\n%s", page.Body)
	}
	if fresh := moveForm(t, page.Body); fresh.version != "" && fresh.version != num(after) {
		t.Errorf("page shows version %s, want %d", fresh.version, after)
	}
	if !strings.Contains(page.Body, `data-version="`+num(after)+`"`) {
		t.Errorf("page is not at version %d", after)
	}
}

// TestPageNeverShowsAnotherSeatsHiddenCards plays a game of Lords of
// Scotland through the pages and checks, after every move, that no card
// hidden from a seat (the other's hand, its face-down followers) appears in
// that seat's HTML.
func TestPageNeverShowsAnotherSeatsHiddenCards(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	bs := []*browser{e.browser(), e.browser()}
	for s, b := range bs {
		b.open(id, s)
	}
	ctx := context.Background()
	for step := 0; step < 40; step++ {
		for s, b := range bs {
			body := b.get("/play/" + id).Body
			other := 1 - s
			hidden := hiddenFrom(t, e, id, other, s)
			for _, m := range reRank.FindAllStringSubmatch(body, -1) {
				if hidden[m[1]] {
					t.Fatalf("step %d: seat %d's page shows card %s hidden from it", step, s, m[1])
				}
			}
		}
		seat := e.toMove(id)
		if seat < 0 {
			break
		}
		f := moveForm(t, bs[seat].get("/play/"+id).Body)
		// Prefer face-down musters, so that there are hidden followers.
		mv := f.moves[step%len(f.moves)]
		for _, m := range f.moves {
			if strings.Contains(m, `"face_up":false`) && step%2 == 0 {
				mv = m
				break
			}
		}
		if p := bs[seat].post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {mv}}); p.Status != http.StatusSeeOther ||
			!strings.HasSuffix(p.Header.Get("Location"), "n=played") {
			t.Fatalf("step %d: move %s: %d %s", step, mv, p.Status, p.Header.Get("Location"))
		}
	}
	_ = ctx
}

// hiddenFrom lists the ranks that seat owner sees and seat viewer does not:
// owner's hand and the followers only owner knows.
func hiddenFrom(t testing.TB, e *pageEnv, id string, owner, viewer int) map[string]bool {
	t.Helper()
	ctx := context.Background()
	vo, err := playtest.SeatView(ctx, e.svc, secret, id, owner)
	if err != nil {
		t.Fatal(err)
	}
	vv, err := playtest.SeatView(ctx, e.svc, secret, id, viewer)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range ranksIn(t, vv.State) {
		seen[r] = true
	}
	out := map[string]bool{}
	for _, r := range ranksIn(t, vo.State) {
		if !seen[r] {
			out[num(int64(r))] = true
		}
	}
	return out
}

// ranksIn lists every card rank in a view's JSON.
func ranksIn(t testing.TB, v any) []int {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if r, ok := x["rank"].(float64); ok && r > 0 {
				out = append(out, int(r))
			}
			for k, y := range x {
				if k != "legal_moves" {
					walk(y)
				}
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	var root any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	walk(root)
	return out
}

func TestPageGenericGameAndHistoryAndAudit(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(testgame.Name, 2, "fr", `{"target":12}`)
	bs := []*browser{e.browser(), e.browser()}
	for s, b := range bs {
		p := b.open(id, s)
		if !strings.Contains(p.Body, "La partie telle que vous la voyez") || !strings.Contains(p.Body, "hand") {
			t.Fatalf("generic page lacks the view's fields:\n%s", p.Body)
		}
	}
	for range 200 {
		seat := e.toMove(id)
		if seat < 0 {
			break
		}
		f := moveForm(t, bs[seat].get("/play/"+id).Body)
		if p := bs[seat].post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}}); p.Status != http.StatusSeeOther {
			t.Fatalf("move: %d", p.Status)
		}
	}
	if e.toMove(id) >= 0 {
		t.Fatal("the game did not end")
	}
	h := bs[0].get("/play/" + id + "/history")
	if h.Status != http.StatusOK || !strings.Contains(h.Body, "Historique de") || strings.Count(h.Body, "<li>") < 5 ||
		!strings.Contains(h.Body, `href="/games/`+id+`/audit?lang=fr"`) {
		t.Fatalf("history: %d\n%s", h.Status, h.Body)
	}
	if p := e.browser().get("/play/" + id + "/history"); p.Status != http.StatusUnauthorized {
		t.Errorf("history without a cookie: %d", p.Status)
	}
	a := e.browser().get("/games/" + id + "/audit")
	if a.Status != http.StatusOK {
		t.Fatalf("audit: %d\n%s", a.Status, a.Body)
	}
	for _, want := range []string{"<svg", "<polyline", "Ann", "Bob", "Comment vérifier", "pbem.created", "Graine"} {
		if !strings.Contains(a.Body, want) {
			t.Errorf("audit lacks %q", want)
		}
	}
	sm, _ := e.svc.Summary(context.Background(), id)
	if !strings.Contains(a.Body, sm.SeedHash) {
		t.Error("audit lacks the seed hash")
	}
	checkAuditChain(t, a.Body)
}

// auditHashes matches an audit page's hash and previous hash of an event.
var auditHashes = regexp.MustCompile(`<code class="wrap">([0-9a-f]{64})</code></dd><dt>[^<]*</dt><dd><code class="wrap">([0-9a-f]{64})</code>`)

// checkAuditChain fails t unless the audit page lists the events' hashes
// as a chain: the first previous hash is all zeros, each next one is the
// hash before it (the store tells them, migration 0091).
func checkAuditChain(t *testing.T, body string) {
	t.Helper()
	pairs := auditHashes.FindAllStringSubmatch(body, -1)
	if len(pairs) < 5 {
		t.Fatalf("audit lists %d events' hashes", len(pairs))
	}
	prev := strings.Repeat("0", 64)
	for i, p := range pairs {
		if p[2] != prev {
			t.Fatalf("audit event %d: previous hash %s, want %s", i+1, p[2], prev)
		}
		prev = p[1]
	}
}

func TestPageAuditBeforeTheEndIsRefused(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	if p := e.browser().get("/games/" + id + "/audit"); p.Status != http.StatusForbidden || !strings.Contains(p.Body, "<h1>") {
		t.Errorf("audit of a running game: %d", p.Status)
	}
}

func TestPageLiveStreamSendsTheNewVersion(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	seat := e.toMove(id)
	watcher := e.browser()
	watcher.open(id, 1-seat)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.url+"/play/"+id+"/events", nil)
	resp, err := watcher.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	next := streamVersions(t, resp.Body)
	if v := next(); v != num(e.version(id)) {
		t.Fatalf("first version %s", v)
	}
	b := e.browser()
	f := moveForm(t, b.open(id, seat).Body)
	b.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}})
	if v := next(); v != num(e.version(id)) {
		t.Fatalf("version after the move %s, want %d", v, e.version(id))
	}
}

func num(n int64) string { return strconv.FormatInt(n, 10) }

// TestPageAuditChartsLordsRoundByRound: the audit page's chart of a
// finished game, in English and in Italian, where the Lords rulebook calls
// a round a "schermaglia".
func TestPageAuditChartsLordsRoundByRound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ lang, round, title string }{
		{"en", "round", "Score round by round"},
		{"it", "schermaglia", "Punteggio schermaglia per schermaglia"},
	} {
		t.Run(tc.lang, func(t *testing.T) { auditChartsLords(t, tc.lang, tc.round, tc.title) })
	}
}

func auditChartsLords(t *testing.T, lang, round, title string) {
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 3, lang, "")
	if n := e.playToEnd(id, 3, 3000); e.toMove(id) >= 0 {
		t.Fatalf("not over after %d moves", n)
	}
	a := e.browser().get("/games/" + id + "/audit")
	if a.Status != http.StatusOK {
		t.Fatalf("audit: %d", a.Status)
	}
	if n := strings.Count(a.Body, "<polyline"); n != 3 {
		t.Fatalf("%d lines in the chart, want 3", n)
	}
	if !strings.Contains(a.Body, round+" 1</th>") || !strings.Contains(a.Body, round+" 2</th>") || !strings.Contains(a.Body, title) {
		t.Errorf("the chart's table has no %s 1, 2 or no title %q", round, title)
	}
	sm, err := e.svc.Summary(context.Background(), id)
	if err != nil || sm.Result == nil {
		t.Fatalf("summary: %v", err)
	}
	// The last column of each row is the player's final supporter points.
	for _, r := range sm.Result.Ranking {
		row := regexp.MustCompile(`<tr><th scope="row">` + r.Name + `</th>(?:<td data-label="[^"]+">\d+</td>)*<td data-label="[^"]+">(\d+)</td></tr>`).FindStringSubmatch(a.Body)
		if row == nil || row[1] != num(int64(r.Score)) {
			t.Errorf("%s: chart ends at %v, result %d", r.Name, row, r.Score)
		}
	}
}

func TestPageHugeFormIsRefused(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	seat := e.toMove(id)
	b := e.browser()
	f := moveForm(t, b.open(id, seat).Body)
	before := e.version(id)
	p := b.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}, "pad": {strings.Repeat("x", 200_000)}})
	if p.Status < 400 || p.Status >= 500 || e.version(id) != before {
		t.Fatalf("huge form: %d, version %d (was %d)", p.Status, e.version(id), before)
	}
}

func TestPageIllegalMoveSaysSo(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	seat := e.toMove(id)
	b := e.browser()
	f := moveForm(t, b.open(id, seat).Body)
	before := e.version(id)
	for _, mv := range []string{`{"type":"recruit","slot":9}`, `{"type":"fly"}`, `not json`} {
		p := b.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {mv}})
		switch {
		case p.Status == http.StatusSeeOther:
			if !strings.HasSuffix(p.Header.Get("Location"), "?n=illegal") {
				t.Errorf("%s: to %q", mv, p.Header.Get("Location"))
			}
			if pg := b.get(p.Header.Get("Location")); !strings.Contains(pg.Body, "That move is not possible now") {
				t.Errorf("%s: no notice", mv)
			}
		case p.Status != http.StatusBadRequest:
			t.Errorf("%s: %d", mv, p.Status)
		}
	}
	if e.version(id) != before {
		t.Fatal("an illegal move changed the game")
	}
}
