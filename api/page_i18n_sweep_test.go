package api_test

import (
	"context"
	"net/http"
	"net/url"
	"pbem/events"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/api"
	"pbem/engine/i18n/i18ntest"
	"pbem/engine/lords"
	"pbem/events/tokens"
	"pbem/projections"
)

// sharedWords are the English phrases of the pages' catalog that French or
// Italian share; the test checks each is that language's own text too.
var sharedWords = map[string][]string{
	// Game titles stay in English; the rest are French words as well.
	"fr": {"Lords of Scotland", "Swords and Bagpipes", "Place", "Score", "Camp", "Version", "Type", "Options", "invasion", "actions"},
	// Game titles; "round" and "Email" are the words Italian players use
	// (the Lords rulebook's "round").
	"it": {"Lords of Scotland", "Swords and Bagpipes", "round", "Email"},
}

// languageNames are shown in their own language whatever the page's: the
// lobby's choice of the game's language lists "English".
var languageNames = []string{"English"}

// langTransport asks for pages in one language, as a browser would.
type langTransport struct {
	lang string
	next http.RoundTripper
}

func (l langTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Accept-Language", l.lang)
	return l.next.RoundTrip(r)
}

// speaking is a browser of e whose requests ask for lang.
func (e *pageEnv) speaking(lang string) *browser {
	b := e.browser()
	b.c.Transport = langTransport{lang: lang, next: http.DefaultTransport}
	return b
}

// pageSweep collects the pages of one language and checks each.
type pageSweep struct {
	t    *testing.T
	lang string
}

// check fails the test on any English text of the catalog in p, named
// kind, which must have status want.
func (s *pageSweep) check(kind string, p page, want int) {
	s.t.Helper()
	if p.Status != want {
		s.t.Errorf("%s %s: status %d, want %d\n%s", s.lang, kind, p.Status, want, p.Body)
		return
	}
	if !strings.Contains(p.Body, `lang="`+s.lang+`"`) {
		s.t.Errorf("%s %s: the page is not in %s", s.lang, kind, s.lang)
	}
	texts, err := i18ntest.HTMLTexts(p.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	if s.lang != "en" {
		allowed := append(append([]string{}, sharedWords[s.lang]...), languageNames...)
		for _, l := range i18ntest.Untranslated(api.PageCatalog, texts, allowed) {
			s.t.Errorf("%s %s: %v", s.lang, kind, l)
		}
	}
	if s.lang == "fr" {
		for _, m := range i18ntest.BreakingMarks(texts) {
			s.t.Errorf("%s %s: no no-break space before a colon, semicolon, question or exclamation mark in %q", s.lang, kind, m)
		}
	}
	if kind != "audit" { // the one page that shows versions, actors and hashes
		for _, d := range i18ntest.DeveloperStrings(texts) {
			s.t.Errorf("%s %s: %v", s.lang, kind, d)
		}
	}
}

// has fails the test unless page p, named kind, shows text.
func (s *pageSweep) has(kind string, p page, text string) {
	s.t.Helper()
	texts, err := i18ntest.HTMLTexts(p.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, x := range texts {
		if strings.Contains(x, text) {
			return
		}
	}
	s.t.Errorf("%s %s: the page does not say %q", s.lang, kind, text)
}

var reSigninID = regexp.MustCompile(`^[0-9a-zA-Z_-]+$`)

// TestEveryPageIsTranslated renders every kind of page in English, French
// and Italian (lobby, its errors, the organiser's pages, the admin page, both
// games' play, history and help pages, a game mid-way after a replacement
// and with a seat a bot plays, a finished game, audit, sign-in, My games,
// the block and preference pages, the error pages), then sends every email
// those games wrote. It fails on any text of the English catalog left in
// a French or Italian page or email, and in every language on a version
// number, an actor id, a hash or a Go/template string anywhere but on the
// audit page (i18ntest.DeveloperStrings).
func TestEveryPageIsTranslated(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	m := newMailEnv(t, false)
	for _, lang := range []string{"en", "fr", "it"} {
		if bad := i18ntest.Allowed(api.PageCatalog, lang, sharedWords[lang]); len(bad) > 0 {
			t.Errorf("%s: shared words that are not %s text: %q", lang, lang, bad)
		}
		s := &pageSweep{t: t, lang: lang}
		b := e.speaking(lang)

		// The lobby, a refused form, a proposal, its confirmation.
		form, _ := lobbyForm(t, b, lang)
		s.check("lobby", b.get("/?lang="+lang), http.StatusOK)
		form.Set("language", lang)
		form.Set("page_lang", lang)
		form.Set("kind2", "easy") // the admin page then names a bot's level
		bad := url.Values{}
		for k, v := range form {
			bad[k] = v
		}
		bad.Set("email2", "not an address")
		bad.Set("name1", "")
		s.check("lobby with errors", b.post("/games", bad), http.StatusBadRequest)
		s.check("proposed", b.post("/games", form), http.StatusAccepted)
		var pid string
		if err := e.pool.QueryRow(context.Background(), `SELECT id FROM proposals ORDER BY created_at DESC LIMIT 1`).Scan(&pid); err != nil {
			t.Fatal(err)
		}
		tok := tokens.Confirm(secret, pid)
		s.check("confirm", b.get("/confirm/"+tok+"?lang="+lang), http.StatusOK)
		s.check("confirmed", b.post("/confirm/"+tok+"?lang="+lang, url.Values{}), http.StatusOK)
		s.check("confirmed again", b.post("/confirm/"+tok+"?lang="+lang, url.Values{}), http.StatusOK)

		// The admin page of that game, before and after an action.
		adm := e.speaking(lang)
		adm.get("/admin/" + pid + "?token=" + tokens.Admin(secret, pid, 0))
		ap := adm.get("/admin/" + pid)
		s.check("admin", ap, http.StatusOK)
		s.has("admin", ap, api.PageCatalog.T(lang, "lobby.kind.easy"))
		adm.post("/admin/"+pid, url.Values{"csrf": {moveForm(t, ap.Body).csrf}, "action": {"pause"}, "reason": {"pausa"}})
		s.check("admin, paused", adm.get("/admin/"+pid+"?n=done"), http.StatusOK)
		ps := e.speaking(lang)
		s.check("play, paused", ps.open(pid, 0), http.StatusOK)
		s.check("play, conflict", ps.get("/play/"+pid+"?n=conflict"), http.StatusOK)

		// Both games' play pages: a move, its notice, table talk, history.
		for _, g := range bothGames {
			id := e.createGame(g.name, g.players, lang, "")
			seat := e.toMove(id)
			pb := e.speaking(lang)
			p := pb.open(id, seat)
			s.check(g.name+" play", p, http.StatusOK)
			f := moveForm(t, p.Body)
			r := pb.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}})
			s.check(g.name+" played", pb.get(r.Header.Get("Location")), http.StatusOK)
			s.check(g.name+" stale", pb.get("/play/"+id+"?n=stale"), http.StatusOK)
			s.check(g.name+" illegal", pb.get("/play/"+id+"?n=illegal"), http.StatusOK)
			r = pb.post("/play/"+id+"/chat", url.Values{"csrf": {f.csrf}, "text": {"ciao"}})
			s.check(g.name+" chat sent", pb.get(r.Header.Get("Location")), http.StatusOK)
			s.check(g.name+" chat refused", pb.get("/play/"+id+"?n=chat_refused"), http.StatusOK)
			other := e.speaking(lang)
			s.check(g.name+" waiting", other.open(id, (seat+1)%g.players), http.StatusOK)
			s.check(g.name+" history", pb.get("/play/"+id+"/history"), http.StatusOK)
			s.check(g.name+" help", pb.get("/help/"+g.name+"?lang="+lang), http.StatusOK)
			ep := pb.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {"x"}, "move": {f.moves[0]}})
			s.check(g.name+" error 400", ep, http.StatusBadRequest)
			s.has(g.name+" error 400", ep, projections.ExplainError(lang, events.CodeInvalid, ""))
			s.check(g.name+" audit refused", pb.get("/games/"+id+"/audit"), http.StatusForbidden)
		}

		// Mid-game, after a replacement and with a seat a bot plays: the
		// admin page, the replaced player's old link, the new player's
		// page, the page of the seat the bot plays, the history.
		hid := e.createGame(lords.Name, 3, lang, "")
		e.playSome(hid, 2, 4)
		ha := e.speaking(lang)
		ha.get("/admin/" + hid + "?token=" + tokens.Admin(secret, hid, 0))
		csrf := moveForm(t, ha.get("/admin/"+hid).Body).csrf
		ha.post("/admin/"+hid, url.Values{"csrf": {csrf}, "action": {"replace"}, "seat": {"2"}, "name": {"Zoé"}, "email": {"zoe@example.org"}})
		s.check("admin, replaced", ha.get("/admin/"+hid+"?n=replace&seat=2"), http.StatusOK)
		ha.post("/admin/"+hid, url.Values{"csrf": {csrf}, "action": {"bot"}, "seat": {"1"}, "level": {"normal"}})
		s.check("admin, bot", ha.get("/admin/"+hid+"?n=bot&seat=1"), http.StatusOK)
		e.playSomeWithBots(hid, 12)
		// The deadline passes: the your-turn emails tell it in their story.
		if _, err := e.svc.Timeout(context.Background(), hid, time.Now().Add(30*24*time.Hour)); err != nil {
			t.Fatal(err)
		}
		e.playSomeWithBots(hid, 4)
		s.check("replaced player's link", e.speaking(lang).get("/play/"+hid+"?token="+tokens.Seat(secret, hid, 2, 0)), http.StatusUnauthorized)
		zb := e.speaking(lang)
		if r := zb.get("/play/" + hid + "?token=" + tokens.Seat(secret, hid, 2, 1)); r.Status != http.StatusSeeOther {
			t.Fatalf("%s: the new player's link: %d", lang, r.Status)
		}
		s.check("new player's page", zb.get("/play/"+hid), http.StatusOK)
		s.check("new player's history", zb.get("/play/"+hid+"/history"), http.StatusOK)
		bp := e.speaking(lang).open(hid, 1)
		s.check("bot seat's page", bp, http.StatusOK)
		s.has("bot seat's page", bp, api.PageCatalog.T(lang, "play.you_are_bot", "Bob"))
		if both := projections.BotSeatName(lang, "Bob") + " " + api.PageCatalog.T(lang, "play.you"); strings.Contains(htmlUnescape(bp.Body), both) {
			t.Errorf("%s: the bot seat's own page labels it %q", lang, both)
		}
		s.check("play, mid-game", e.speaking(lang).open(hid, 0), http.StatusOK)
		ha.post("/admin/"+hid, url.Values{"csrf": {csrf}, "action": {"resend"}, "seat": {"0"}})
		s.check("admin, resent", ha.get("/admin/"+hid+"?n=resend&seat=0"), http.StatusOK)

		// A finished game: the result, the audit with its chart.
		id := e.createGame(lords.Name, 2, lang, "")
		if n := e.playToEnd(id, 5, 3000); e.toMove(id) >= 0 {
			t.Fatalf("not over after %d moves", n)
		}
		fb := e.speaking(lang)
		s.check("play, over", fb.open(id, 0), http.StatusOK)
		s.check("audit", fb.get("/games/"+id+"/audit"), http.StatusOK)
		s.check("history, over", fb.get("/play/"+id+"/history"), http.StatusOK)

		// Sign-in, My games, the block link.
		sb := e.speaking(lang)
		f := sb.get("/signin?lang=" + lang)
		s.check("sign-in", f, http.StatusOK)
		s.check("sign-in sent", sb.post("/signin", url.Values{"csrf": {moveForm(t, f.Body).csrf}, "email": {"ann@example.org"}, "page_lang": {lang}}), http.StatusOK)
		s.check("sign-in refused", sb.post("/signin", url.Values{"csrf": {moveForm(t, f.Body).csrf}, "email": {"nope"}, "page_lang": {lang}}), http.StatusBadRequest)
		var sid string
		if err := e.pool.QueryRow(context.Background(), `SELECT id FROM signin_links WHERE email = 'ann@example.org' ORDER BY created_at DESC LIMIT 1`).Scan(&sid); err != nil || !reSigninID.MatchString(sid) {
			t.Fatalf("sign-in link: %q %v", sid, err)
		}
		stok := tokens.Signin(secret, sid)
		s.check("sign-in link", sb.get("/signin/"+stok+"?lang="+lang), http.StatusOK)
		sb.post("/signin/"+stok, url.Values{})
		s.check("my games", sb.get("/me?lang="+lang), http.StatusOK)
		block := url.QueryEscape(tokens.Block(secret, "dee@example.org"))
		s.check("block", sb.get("/mail/block?token="+block+"&lang="+lang), http.StatusOK)
		s.check("blocked", sb.post("/mail/block", url.Values{"token": {tokens.Block(secret, "dee@example.org")}, "action": {"block"}}), http.StatusOK)

		// The error pages: each status the pages can answer.
		s.check("error 404", b.get("/games/nosuchgame/audit"), http.StatusNotFound)
		ep := e.speaking(lang).get("/play/" + id + "?token=forged")
		s.check("error 401", ep, http.StatusUnauthorized)
		s.has("error 401", ep, api.PageCatalog.T(lang, "err.unauthorized"))
		s.has("error 401", ep, api.PageCatalog.T(lang, "err.title"))
		s.check("error 403 (csrf)", b.post("/games", url.Values{"csrf": {"x"}}), http.StatusForbidden)
		s.check("error 413", fb.post("/play/"+id, url.Values{"pad": {strings.Repeat("x", 200_000)}}), http.StatusRequestEntityTooLarge)

		// The mail preference page, shown and saved.
		utok := url.QueryEscape(tokens.Unsubscribe(secret, "ann@example.org"))
		for kind, path := range map[string]string{"preferences": "/mail/unsubscribe?token=" + utok + "&lang=" + lang, "preferences, bad link": "/mail/unsubscribe?token=bogus.token&lang=" + lang} {
			code, body := m.request(http.MethodGet, path, "", "")
			want := http.StatusOK
			if strings.Contains(path, "bogus") {
				want = http.StatusBadRequest
			}
			s.check(kind, page{Status: code, Body: body}, want)
		}
		code, body := m.request(http.MethodPost, "/mail/unsubscribe?lang="+lang, "token="+utok+"&mode=digest", "")
		s.check("preferences saved", page{Status: code, Body: body}, code)

		// Every email these games sent, through the worker that tells
		// each your-turn email's story: in lang, with no developer string.
		kinds := map[string]bool{}
		// A your-turn email waits on its game's row until the worker
		// writes it (games.turn_mail, migration 0101).
		rows, err := e.pool.Query(context.Background(), `SELECT DISTINCT kind FROM outbox WHERE status = 'pending'
			UNION SELECT 'your_turn' FROM games WHERE turn_mail IS NOT NULL`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				t.Fatal(err)
			}
			kinds[k] = true
		}
		rows.Close()
		for _, em := range drainOutbox(t, e) {
			checkEmailIn(t, em, lang)
		}
		for _, k := range []string{"invitation", "your_turn", "chat", "notice", "round_end", "game_over", "confirm", "admin_link", "signin", "link"} {
			if !kinds[k] {
				t.Errorf("%s: no %s email was sent by the sweep", lang, k)
			}
		}
	}
}

// TestEnglishPagesAreFlagged makes sure the check above can fail: an
// English page holds the English catalog's phrases.
func TestEnglishPagesAreFlagged(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	p := e.speaking("en").get("/?lang=en")
	texts, err := i18ntest.HTMLTexts(p.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got := i18ntest.Untranslated(api.PageCatalog, texts, nil); len(got) < 10 {
		t.Errorf("only %v found in the English lobby", got)
	}
}

// TestRefusalPagesAreTranslated shows the pages of a request refused for
// its rate (429) and of a database that cannot answer (5xx) in French and
// Italian: each says so in the page's language, with no English text.
func TestRefusalPagesAreTranslated(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	b := e.speaking("fr")
	f := b.get("/signin?lang=fr")
	csrf := moveForm(t, f.Body).csrf
	limited := false
	for range 10 {
		if p := b.post("/signin", url.Values{"csrf": {csrf}, "email": {"ann@example.org"}, "page_lang": {"fr"}}); p.Status == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("ten sign-in requests for one address were never refused")
	}
	langs := []string{"fr", "it"}
	for _, lang := range langs {
		s := &pageSweep{t: t, lang: lang}
		lb := e.speaking(lang)
		csrf := moveForm(t, lb.get("/signin?lang="+lang).Body).csrf
		p := lb.post("/signin", url.Values{"csrf": {csrf}, "email": {"ann@example.org"}, "page_lang": {lang}})
		s.check("rate limited", p, http.StatusTooManyRequests)
		s.has("rate limited", p, api.PageCatalog.T(lang, "err.rate_limited"))
	}
	id := e.createGame(lords.Name, 2, "fr", "")
	e.pool.Close()
	for _, lang := range langs {
		s := &pageSweep{t: t, lang: lang}
		p := e.speaking(lang).get("/games/" + id + "/audit")
		if p.Status < 500 {
			t.Fatalf("%s: with the database closed: %d", lang, p.Status)
		}
		s.check("database down", p, p.Status)
		s.has("database down", p, api.PageCatalog.T(lang, "err.internal"))
	}
}

// playSomeWithBots plays n decisions of game id (fewer if it ends): the
// bot's for a seat a bot plays, a random legal move for the others.
func (e *pageEnv) playSomeWithBots(id string, n int) {
	e.t.Helper()
	for i := range n {
		seat := e.toMove(id)
		if seat < 0 {
			return
		}
		played, err := e.svc.PlayBot(context.Background(), id, seat)
		if err != nil {
			e.t.Fatal(err)
		}
		if !played {
			e.playToEnd(id, uint64(i), 1)
		}
	}
}
