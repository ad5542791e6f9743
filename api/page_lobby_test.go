package api_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/api"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/tokens"
	"pbem/notify"
	"pbem/projections"
	"pbem/projections/outbox"
)

var reConfirm = regexp.MustCompile(`<form method="post" action="/confirm/([^"?]+)`)

// confirmLast confirms the newest proposal as its organiser would: the
// link's page shows one button, whose POST creates the game. It returns
// the game's id.
func (e *pageEnv) confirmLast(t *testing.T) string {
	t.Helper()
	var id string
	if err := e.pool.QueryRow(context.Background(), `SELECT id FROM proposals ORDER BY created_at DESC LIMIT 1`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	b := e.browser()
	p := b.get("/confirm/" + tokens.Confirm(secret, id))
	m := reConfirm.FindStringSubmatch(p.Body)
	if p.Status != http.StatusOK || m == nil {
		t.Fatalf("confirm page: %d\n%s", p.Status, p.Body)
	}
	if p := b.post("/confirm/"+m[1], url.Values{}); p.Status != http.StatusOK || !strings.Contains(p.Body, `id="confirmed"`) {
		t.Fatalf("confirm: %d\n%s", p.Status, p.Body)
	}
	return id
}

func lobbyForm(t *testing.T, b *browser, lang string) (url.Values, string) {
	t.Helper()
	p := b.get("/?lang=" + lang)
	if p.Status != http.StatusOK || !strings.Contains(p.Body, `<form method="post" action="/games"`) {
		t.Fatalf("lobby: %d\n%s", p.Status, p.Body)
	}
	f := moveForm(t, p.Body)
	return url.Values{"csrf": {f.csrf}, "game": {lords.Name}, "language": {"fr"}, "deadline": {"48h"},
		"policy": {"skip"}, "name1": {"Ann"}, "email1": {"ann@example.org"}, "name2": {"Bob"}, "email2": {"bob@example.org"},
		"players": {"2"}, "opt_bruce": {"on"}, "organiser_email": {"ann@example.org"}}, p.Body
}

// lobbyIn returns a client speaking lang and the lobby's form as lobbyForm
// fills it, sent from the page in lang.
func lobbyIn(t *testing.T, e *pageEnv, lang string) (*browser, url.Values) {
	t.Helper()
	b := e.speaking(lang)
	form, _ := lobbyForm(t, b, lang)
	form.Set("page_lang", lang)
	return b, form
}

func TestPageLobbyCreatesAGameAndTheAdminManagesIt(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	b := e.browser()
	form, body := lobbyForm(t, b, "it")
	if !strings.Contains(body, "Crea la partita") {
		t.Error("the lobby is not in Italian with ?lang=it")
	}
	// Without the lobby's CSRF token nothing is created.
	bad := url.Values{}
	for k, v := range form {
		bad[k] = v
	}
	bad.Set("csrf", "x")
	if p := b.post("/games", bad); p.Status != http.StatusForbidden {
		t.Fatalf("create without csrf: %d", p.Status)
	}
	// A bad request shows the form again, filled in, with the reason.
	bad = url.Values{}
	for k, v := range form {
		bad[k] = v
	}
	bad.Set("email2", "not an address")
	if p := b.post("/games", bad); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, `value="Ann"`) || !strings.Contains(p.Body, `role="alert"`) {
		t.Fatalf("bad create: %d\n%s", p.Status, p.Body)
	}
	p := b.post("/games", form)
	if p.Status != http.StatusAccepted || !strings.Contains(p.Body, "ann@example.org") {
		t.Fatalf("create: %d\n%s", p.Status, p.Body)
	}
	// The organiser (Ann, a player) confirms by the emailed link.
	id := e.confirmLast(t)
	link, err := url.Parse("/admin/" + id + "?token=" + tokens.Admin(secret, id, 0))
	if err != nil {
		t.Fatal(err)
	}
	sm, err := e.svc.Summary(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if sm.Language != "fr" || len(sm.Seats) != 2 || sm.Game != lords.Name {
		t.Fatalf("created %+v", sm)
	}
	var outbox int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE game_id = $1 AND kind = 'invitation'`, id).Scan(&outbox); err != nil || outbox != 2 {
		t.Fatalf("%d invitations queued (%v)", outbox, err)
	}

	// The admin link: swapped for a cookie scoped to /admin/{id}.
	adm := e.browser()
	r := adm.get(link.RequestURI())
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/admin/"+id || !strings.Contains(r.Header.Get("Set-Cookie"), "Path=/admin/"+id) {
		t.Fatalf("admin link: %d %q %q", r.Status, r.Header.Get("Location"), r.Header.Get("Set-Cookie"))
	}
	ap := adm.get("/admin/" + id)
	if ap.Status != http.StatusOK || !strings.Contains(ap.Body, "Gérer") {
		t.Fatalf("admin page: %d\n%s", ap.Status, ap.Body)
	}
	csrf := moveForm(t, ap.Body).csrf
	act := func(vals url.Values) page {
		t.Helper()
		vals.Set("csrf", csrf)
		return adm.post("/admin/"+id, vals)
	}
	status := func() string {
		sm, err := e.svc.Summary(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return sm.Status
	}
	if p := adm.post("/admin/"+id, url.Values{"action": {"pause"}}); p.Status != http.StatusForbidden || status() != projections.StatusActive {
		t.Fatalf("pause without csrf: %d, %s", p.Status, status())
	}
	if p := act(url.Values{"action": {"pause"}}); p.Status != http.StatusSeeOther || status() != projections.StatusPaused {
		t.Fatalf("pause: %d, %s", p.Status, status())
	}
	if p := adm.get("/admin/" + id + "?n=done"); !strings.Contains(p.Body, "C&#39;est fait.") || !strings.Contains(p.Body, "Reprendre la partie") {
		t.Errorf("paused admin page:\n%s", p.Body)
	}
	if p := act(url.Values{"action": {"resume"}}); p.Status != http.StatusSeeOther || status() != projections.StatusActive {
		t.Fatalf("resume: %d, %s", p.Status, status())
	}
	dl := func() string {
		sm, _ := e.svc.Summary(context.Background(), id)
		return sm.Deadline.String()
	}
	before := dl()
	if p := act(url.Values{"action": {"extend"}, "by": {"24h"}}); p.Status != http.StatusSeeOther || dl() == before {
		t.Fatalf("extend: %d", p.Status)
	}
	if p := act(url.Values{"action": {"resend"}, "seat": {"1"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("resend: %d", p.Status)
	}
	// Bob's first link no longer opens the game.
	if p := e.browser().get("/play/" + id + "?token=" + tokens.Seat(secret, id, 1, 0)); p.Status != http.StatusUnauthorized {
		t.Errorf("old link after resend: %d", p.Status)
	}
	if p := act(url.Values{"action": {"abort"}}); p.Status != http.StatusBadRequest || status() != projections.StatusActive {
		t.Fatalf("abort without confirmation: %d, %s", p.Status, status())
	}
	if p := act(url.Values{"action": {"abort"}, "confirm": {"yes"}}); p.Status != http.StatusSeeOther || status() != projections.StatusAborted {
		t.Fatalf("abort: %d, %s", p.Status, status())
	}
	// A seat's cookie is no admin cookie.
	seat := e.browser()
	seat.open(id, 0)
	if p := seat.get("/admin/" + id + "?token=" + tokens.Seat(secret, id, 0, 0)); p.Status != http.StatusUnauthorized {
		t.Errorf("seat token on the admin page: %d", p.Status)
	}
}

func TestPageSpeaksTheGamesLanguage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	// The page's own labels use the rulebook's terms, as the engine's
	// move labels do: a French player musters an allié (engager), an
	// Italian one schiera una carta clan; the older words are gone.
	lacks := map[string][]string{
		"fr": {"Lever", "suivant", "Prendre un partisan", "Partisans pris"},
		"it": {"seguac", "sostenitor", "Round "},
		"en": {},
	}
	for lang, want := range map[string][]string{
		// The move labels are the engine's, in the game's language.
		"fr": {"Votre main", "Recruter", "Engager un allié", "Armée de Bob", "face cachée", "Recruter la recrue face cachée (emplacement 2)", "Manche 1, tour 1 sur 5.", "Partisans"},
		"it": {"La tua mano", "Recluta", "Schierare una carta clan", "Esercito di Bob", "coperta", "Recluta la carta coperta (posto 2)", "Schermaglia 1, turno 1 di 5.", "Supporter"},
		"en": {"Your hand", "Recruit", "Muster", "Army of Bob", "face-down", "Recruit the face-down card (place 2)"},
	} {
		id := e.createGame(lords.Name, 2, lang, "")
		b := e.browser()
		p := b.open(id, e.toMove(id))
		if !strings.Contains(p.Body, `<html lang="`+lang+`">`) {
			t.Errorf("%s: wrong html lang", lang)
		}
		for _, w := range want {
			if !strings.Contains(p.Body, w) {
				t.Errorf("%s: page lacks %q", lang, w)
			}
		}
		for _, w := range lacks[lang] {
			if strings.Contains(p.Body, w) {
				t.Errorf("%s: page still says %q", lang, w)
			}
		}
	}
}

func TestPageRendersSwordsAndBagpipes(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(bagpipes.Name, 3, "en", "")
	seat := e.toMove(id)
	b := e.browser()
	p := b.open(id, seat)
	if p.Status != http.StatusOK {
		t.Fatalf("%d\n%s", p.Status, p.Body)
	}
	for _, want := range []string{"Your bagpipe cards", "Gold", "Castle", "Round 1 of", `class="bcard`} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("bagpipes page lacks %q", want)
		}
	}
	f := moveForm(t, p.Body)
	if len(f.moves) == 0 {
		t.Fatal("no moves")
	}
	if r := b.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}}); r.Status != http.StatusSeeOther ||
		!strings.HasSuffix(r.Header.Get("Location"), "n=played") {
		t.Fatalf("move: %d %s", r.Status, r.Header.Get("Location"))
	}
}

func TestPageStaticAssets(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	b := e.browser()
	for path, ctype := range map[string]string{"/static/app.css": "text/css", "/static/app.js": "javascript"} {
		p := b.get(path)
		if p.Status != http.StatusOK || !strings.Contains(p.Header.Get("Content-Type"), ctype) || len(p.Body) < 100 {
			t.Errorf("%s: %d %q", path, p.Status, p.Header.Get("Content-Type"))
		}
	}
	for _, path := range []string{"/static/", "/static/nope.js", "/static/../page.go"} {
		if p := b.get(path); p.Status != http.StatusNotFound {
			t.Errorf("%s: %d", path, p.Status)
		}
	}
}

// TestPageWeight measures a play page with its assets (the figure in the
// report): under 100 KB.
func TestPageWeight(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 4, "fr", "")
	b := e.browser()
	assets := 0
	for _, a := range []string{"/static/app.css", "/static/app.js"} {
		assets += len(b.get(a).Body)
	}
	for _, moves := range []int{0, 60} {
		e.playToEnd(id, 9, moves)
		seat := max(e.toMove(id), 0)
		html := len(e.browser().open(id, seat).Body)
		t.Logf("play page, 4 players, after %d moves: HTML %d bytes, with CSS and JS %d bytes", moves, html, html+assets)
		if html+assets > 100_000 {
			t.Errorf("page with assets is %d bytes, want under 100 KB", html+assets)
		}
	}
}

// failedList is a fixed list of failed emails.
type failedList []notify.FailedEmail

func (f failedList) Failed(context.Context, string) ([]notify.FailedEmail, error) { return f, nil }

func TestPageAdminSeesFailedEmails(t *testing.T) {
	t.Parallel()
	e := newPageEnvWith(t, func(pc *api.PageConfig) {
		next := time.Now().Add(time.Hour)
		pc.Failed = failedList{{ID: 8, Seat: 0, Kind: outbox.Kind("your_turn"), To: "ann@example.org", Status: notify.EmailWaiting, Attempts: 12,
			LastError: "421 relay busy", NextAttempt: &next, CreatedAt: time.Now()},
			{ID: 7, Seat: 1, Kind: outbox.Kind("invitation"), To: "bob@example.org", Status: notify.EmailFailed, Attempts: 8,
				LastError: "550 mailbox unavailable", CreatedAt: time.Now()}}
		pc.Secure = true
	})
	id := e.createGame(lords.Name, 2, "en", "")
	b := e.browser()
	r := b.get("/admin/" + id + "?token=" + tokens.Admin(secret, id, 0))
	if !strings.Contains(r.Header.Get("Set-Cookie"), "Secure") {
		t.Errorf("cookie not Secure with PageConfig.Secure: %q", r.Header.Get("Set-Cookie"))
	}
	// The test client speaks plain http, so it would not send a Secure
	// cookie back: read the page with the token's cookie by hand.
	req, _ := http.NewRequest(http.MethodGet, e.url+"/admin/"+id, nil)
	req.AddCookie(&http.Cookie{Name: "pbem_admin", Value: tokens.Admin(secret, id, 0)})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	p := read(t, resp)
	for _, want := range []string{"Emails not sent yet, or that could not be sent", "bob@example.org", "550 mailbox unavailable", "given up",
		"ann@example.org", "421 relay busy", "waiting, next try", "<time datetime="} {
		if !strings.Contains(p.Body, want) {
			t.Errorf("admin page lacks %q", want)
		}
	}
}

// TestLobbyNamesTheDuplicateAddress: two players given one address (in
// other capitals) are both marked, each beside their address and naming
// the other, in the page's language; nothing is proposed.
func TestLobbyNamesTheDuplicateAddress(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, lang := range []string{"en", "fr", "it"} {
		b, form := lobbyIn(t, e, lang)
		form.Set("email2", "Ann@Example.org")
		p := b.post("/games", form)
		if p.Status != http.StatusBadRequest {
			t.Fatalf("%s: duplicate address: %d", lang, p.Status)
		}
		(&pageSweep{t: t, lang: lang}).check("lobby, duplicate address", p, http.StatusBadRequest)
		body := htmlUnescape(p.Body)
		for _, want := range []string{api.PageCatalog.T(lang, "lobby.err.email_twice", "Ann"), api.PageCatalog.T(lang, "lobby.err.email_twice", "Bob")} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the page does not say %q", lang, want)
			}
		}
		if strings.Contains(body, api.PageCatalog.T(lang, "lobby.err.email")) {
			t.Errorf("%s: a duplicate address is answered %q", lang, api.PageCatalog.T(lang, "lobby.err.email"))
		}
	}
	var n int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM proposals`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d proposals, %v", n, err)
	}
}

// TestConfirmPageRecapsTheGame: the organiser's confirmation page shows,
// before its button and in the page's language, the game, its option,
// every player with their address and language or their bot, the time for
// a turn and what happens when it runs out; opening it creates nothing. A
// bot seat has no name field (issue #43 part 7): a name posted for it
// anyway is not taken, and the seat is named as the lobby names bots.
func TestConfirmPageRecapsTheGame(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, lang := range []string{"en", "fr", "it"} {
		b, form := lobbyIn(t, e, lang)
		form.Set("players", "3")
		form.Set("lang1", "it")
		form.Set("name3", "Zorglub")
		form.Set("kind3", "strong")
		form.Set("policy", "pause")
		form.Set("deadline", "48h")
		if p := b.post("/games", form); p.Status != http.StatusAccepted {
			t.Fatalf("%s: propose: %d", lang, p.Status)
		}
		var pid string
		if err := e.pool.QueryRow(context.Background(), `SELECT id FROM proposals ORDER BY created_at DESC LIMIT 1`).Scan(&pid); err != nil {
			t.Fatal(err)
		}
		p := b.get("/confirm/" + tokens.Confirm(secret, pid) + "?lang=" + lang)
		(&pageSweep{t: t, lang: lang}).check("confirm", p, http.StatusOK)
		body := htmlUnescape(p.Body)
		cat := api.PageCatalog
		recap, button := strings.Index(body, `id="recap"`), strings.Index(body, `id="confirm"`)
		if recap < 0 || button < recap {
			t.Fatalf("%s: no recap before the button:\n%s", lang, body)
		}
		for _, want := range []string{
			cat.T(lang, "game.lords-of-scotland"),
			cat.T(lang, "confirm.recap"),
			"ann@example.org", "bob@example.org", cat.T(lang, "lobby.bot_name", 3),
			cat.T(lang, "confirm.reads", "Italiano"),
			cat.T(lang, "lobby.kind.strong"),
			cat.T(lang, "lobby.hours", 48),
			cat.T(lang, "lobby.policy.pause"),
		} {
			if !strings.Contains(body[recap:button], want) {
				t.Errorf("%s: the recap does not say %q:\n%s", lang, want, body[recap:button])
			}
		}
		if strings.Contains(body[recap:button], "Zorglub") {
			t.Errorf("%s: the recap names the bot seat by the name posted for it:\n%s", lang, body[recap:button])
		}
		var n int
		if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM games`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%s: %d games after opening the page (%v), want 0", lang, n, err)
		}
	}
	// A link that opens nothing shows no recap.
	if p := e.speaking("en").get("/confirm/forged"); p.Status != http.StatusOK || strings.Contains(p.Body, `id="recap"`) {
		t.Errorf("forged link: %d, recap shown", p.Status)
	}
}
