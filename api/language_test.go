package api_test

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/api"
	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/i18n"
	"pbem/engine/i18n/i18ntest"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections/outbox"
	"pbem/projections/testgame"
)

// emailCatalog is the emails' catalog (notify/i18n), read from the source
// tree as notify embeds it.
var emailCatalog = i18n.MustLoad(os.DirFS("../notify"), "i18n", "emails")

// reader is one player of the three-language table.
type reader struct {
	name, email, lang string
}

var table = []reader{
	{"Ann", "ann@example.org", "en"},
	{"Béa", "bea@example.org", "fr"},
	{"Ciro", "ciro@example.org", "it"},
}

// readerOf is the player an address belongs to.
func readerOf(t *testing.T, addr string) reader {
	t.Helper()
	for _, r := range table {
		if strings.EqualFold(r.email, addr) {
			return r
		}
	}
	t.Fatalf("an email to %s, who is not at the table", addr)
	return reader{}
}

// sentMail is one email the SMTP sink received, parsed.
type sentMail struct {
	to                  string
	subject, text, html string
}

// drainOutbox sends every due email of the outbox through the notify
// worker (with its SeatReader, as serve runs it) to a real SMTP sink, and
// returns them.
func drainOutbox(t *testing.T, e *pageEnv) []sentMail {
	t.Helper()
	sink, sender := startSink(t)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: e.url})
	if err != nil {
		t.Fatal(err)
	}
	lg, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	seats := notifypg.NewSeats(e.pool, notifypg.Histories{Games: engine.NewRegistry(lg, bagpipes.Game{}, testgame.Game{}), Events: e.store})
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(e.pool), Sender: sender, Renderer: r, Seats: seats,
		Now: func() time.Time { return time.Now().Add(time.Second) }})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		got, err := w.RunOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got == 0 {
			break
		}
		n += got
	}
	// The worker counts the rows it settled, some without an email (an
	// address that asked for the digest only, table talk a your-turn
	// email told): each email it sent was taken by the sink before
	// RunOnce returned.
	var out []sentMail
	for _, m := range sink.Messages() {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		to, err := mail.ParseAddress(p.Header.Get("To"))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sentMail{to: to.Address, subject: p.Subject, text: p.Text, html: p.HTML})
	}
	if len(out) > n || n > 0 && len(out) == 0 {
		t.Fatalf("the SMTP server received %d emails, the worker settled %d rows", len(out), n)
	}
	return out
}

// checkEmailIn fails the test unless m is written in lang: for French and
// Italian no phrase of the English catalog in its subject, text or HTML;
// in every language the catalog's footer in lang.
func checkEmailIn(t *testing.T, m sentMail, lang string) {
	t.Helper()
	texts := append([]string{m.subject}, i18ntest.TextLines(m.text)...)
	htmlTexts, err := i18ntest.HTMLTexts(m.html)
	if err != nil {
		t.Fatal(err)
	}
	texts = append(texts, htmlTexts...)
	if lang != "en" {
		for _, l := range i18ntest.Untranslated(emailCatalog, texts, allowedInEmails[lang]) {
			t.Errorf("%s (%s) %q: %v", m.to, lang, m.subject, l)
		}
	}
	for _, d := range i18ntest.DeveloperStrings(texts) {
		t.Errorf("%s (%s) %q: %v", m.to, lang, m.subject, d)
	}
	if lang == "fr" {
		for _, b := range i18ntest.BreakingMarks(texts) {
			t.Errorf("%s (%s) %q: no no-break space before a colon, semicolon, question or exclamation mark in %q", m.to, lang, m.subject, b)
		}
	}
	if want := emailCatalog.T(lang, "footer.why"); !strings.Contains(m.text, want) {
		t.Errorf("%s (%s) %q: not in %s (no %q):\n%s", m.to, lang, m.subject, lang, want, m.text)
	}
}

// allowedInEmails are the English phrases French and Italian emails share
// (as notify's TestEveryEmailIsTranslated has them).
var allowedInEmails = map[string][]string{
	"fr": {"Re:", "Points"},
	"it": {"Re:"},
}

// TestEachPlayerReadsTheirLanguage is a table of three players who read
// three languages (English, French, Italian) at one English game of Lords
// of Scotland, created with players[i].language through the API: every
// email each receives (invitation, your turn, round end, game over, read
// from a real SMTP conversation) and every page each opens (play page,
// history, with a browser that asks for English) is in their language; the
// game's labels and explanations too. Then Ciro chooses French from the
// play page's language menu: his page and his next emails are in French.
func TestEachPlayerReadsTheirLanguage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	body := map[string]any{"game": lords.Name, "language": "en", "organiser": map[string]string{"name": "Ann", "email": "ann@example.org"}}
	var players []map[string]string
	for _, r := range table {
		players = append(players, map[string]string{"name": r.name, "email": r.email, "language": r.lang})
	}
	body["players"] = players
	raw, _ := json.Marshal(body)
	resp, err := http.Post(e.url+"/api/v1/games", "application/json", strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	var proposed struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&proposed); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("create: %s %v", resp.Status, err)
	}
	resp.Body.Close()
	resp, err = http.Post(e.url+"/api/v1/confirm/"+tokens.Confirm(secret, proposed.ID), "application/json", nil)
	if err != nil || resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		t.Fatalf("confirm: %v %v", resp.Status, err)
	}
	resp.Body.Close()
	id := proposed.ID

	// A bad language is refused, naming the field.
	bad := strings.Replace(string(raw), `"language":"it"`, `"language":"de"`, 1)
	resp, err = http.Post(e.url+"/api/v1/games", "application/json", strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	var refusal struct {
		Error struct {
			Field string `json:"field"`
		} `json:"error"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&refusal)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || refusal.Error.Field != "players[2].language" {
		t.Errorf("players[2].language de: %s, field %q", resp.Status, refusal.Error.Field)
	}

	// The invitations.
	kinds := map[string]int{}
	invited := 0
	for _, m := range drainOutbox(t, e) {
		if strings.Contains(m.text, "/admin/") || strings.Contains(m.text, "/confirm/") {
			continue // the organiser's
		}
		r := readerOf(t, m.to)
		checkEmailIn(t, m, r.lang)
		if !strings.Contains(m.text, emailCatalog.T(r.lang, "hello", r.name)) {
			t.Errorf("%s: no %q in\n%s", m.to, emailCatalog.T(r.lang, "hello", r.name), m.text)
		}
		invited++
	}
	if invited != 3 {
		t.Fatalf("%d invitations, want 3", invited)
	}

	// The pages, with browsers that ask for English: each in its seat's
	// language, with the game's labels in it.
	browsers := make([]*browser, len(table))
	for i, r := range table {
		browsers[i] = e.speaking("en")
		p := browsers[i].open(id, i)
		readerPage(t, r.lang, "play", p, http.StatusOK)
		if !strings.Contains(p.Body, `lang="`+r.lang+`"`) {
			t.Errorf("%s's play page is not in %s", r.name, r.lang)
		}
		v, err := playtest.SeatView(ctx, e.svc, secret, id, i)
		if err != nil {
			t.Fatal(err)
		}
		if v.Language != r.lang {
			t.Errorf("%s's view says language %q", r.name, v.Language)
		}
	}
	ann, _ := playtest.SeatView(ctx, e.svc, secret, id, 0)
	bea, _ := playtest.SeatView(ctx, e.svc, secret, id, 1)
	ciro, _ := playtest.SeatView(ctx, e.svc, secret, id, 2)
	if len(ann.LegalMoves)+len(bea.LegalMoves)+len(ciro.LegalMoves) == 0 {
		t.Fatal("nobody may move")
	}

	// Half the game: every email is in its reader's language.
	e.playSome(id, 3, 40)
	for _, m := range drainOutbox(t, e) {
		checkEmailIn(t, m, readerOf(t, m.to).lang)
		kinds[readerOf(t, m.to).lang]++
	}
	for i, r := range table {
		readerPage(t, r.lang, "history", browsers[i].get("/play/"+id+"/history"), http.StatusOK)
		readerPage(t, r.lang, "play, later", browsers[i].get("/play/"+id), http.StatusOK)
	}

	// Ciro chooses French from his page's menu.
	p := browsers[2].get("/play/" + id)
	f := moveForm(t, p.Body)
	r := browsers[2].post("/play/"+id+"/language", url.Values{"csrf": {f.csrf}, "lang": {"fr"}, "back": {"/play/" + id}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/play/"+id {
		t.Fatalf("language menu: %d to %q\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	readerPage(t, "fr", "Ciro's page after the menu", browsers[2].get("/play/"+id), http.StatusOK)
	if v, _ := playtest.SeatView(ctx, e.svc, secret, id, 2); v.Language != "fr" {
		t.Errorf("Ciro's view after the menu says %q", v.Language)
	}
	table[2].lang = "fr"
	defer func() { table[2].lang = "it" }()

	// The rest of the game: Ciro's emails are now French, the result
	// reaches everyone in their language.
	if n := e.playToEnd(id, 4, 5000); e.toMove(id) >= 0 {
		t.Fatalf("not over after %d moves", n)
	}
	for _, m := range drainOutbox(t, e) {
		rd := readerOf(t, m.to)
		checkEmailIn(t, m, rd.lang)
		kinds[rd.lang]++
	}
	for _, l := range []string{"en", "fr", "it"} {
		if kinds[l] == 0 {
			t.Errorf("no email in %s after the invitations", l)
		}
	}
	for i, rd := range table {
		readerPage(t, rd.lang, "play, over", browsers[i].get("/play/"+id), http.StatusOK)
	}
}

// readerPage fails the test unless p (named kind, status want) is in
// lang: its lang attribute, and for French and Italian no English text of
// the pages' catalog (pageSweep).
func readerPage(t *testing.T, lang, kind string, p page, want int) {
	t.Helper()
	if lang != "en" {
		(&pageSweep{t: t, lang: lang}).check(kind, p, want)
		return
	}
	if p.Status != want || !strings.Contains(p.Body, `<html lang="en"`) {
		t.Errorf("en %s: status %d (want %d), or not in English", kind, p.Status, want)
	}
}

// playSome plays n moves of game id (random legal ones, from seed), fewer
// if it ends.
func (e *pageEnv) playSome(id string, seed uint64, n int) {
	e.t.Helper()
	for range n {
		if e.toMove(id) < 0 {
			return
		}
		e.playToEnd(id, seed, 1)
		seed++
	}
}

// TestFinishedPageTellsTheResultInTheReadersLanguage (a user trial: a
// French and an Italian player at an English game of Swords and Bagpipes
// read "… wins with 31 points." on their pages, in "La partie est
// terminée." and the result's headline, while their game-over emails were
// right): the play page of a finished game tells the winner in its
// reader's language, as the game-over email does, in the status line and
// the headline. And it says what decided the ranking (a later trial read
// "Giulia wins with 23 points" above a table of gold ranking 15 above 22,
// when Scotland had fallen and the fewest daggers decided): the headline
// names Scotland's fate and the deciding figure, the table heads that
// figure's column first, and no "points" or "Score" column is shown (the
// round-by-round table is headed by the gold it tells); the game-over
// email to each seat tells the same sentence and columns.
func TestFinishedPageTellsTheResultInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	readers := []reader{{"Ann", "ann@example.org", "en"}, {"Amélie", "amelie@example.org", "fr"}, {"Giulia", "giulia@example.org", "it"}}
	req := play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: bagpipes.Name, Language: "en"}
	for _, r := range readers {
		req.Players = append(req.Players, play.NewPlayer{Name: r.name, Email: r.email, Language: r.lang})
	}
	cg, err := e.svc.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	id := cg.ID
	if n := e.playToEnd(id, 11, 5000); e.toMove(id) >= 0 {
		t.Fatalf("not over after %d moves", n)
	}
	// What decided, by language: Scotland's fate, and the first column.
	decided := map[string][2][2]string{
		"en": {{"Scotland fell after", "Daggers"}, {"Scotland held:", "Gold"}},
		"fr": {{"L'Écosse est tombée après", "Dagues"}, {"L'Écosse a tenu bon", "Or"}},
		"it": {{"La Scozia è caduta dopo", "Pugnali"}, {"La Scozia ha resistito", "Oro"}},
	}
	headline := regexp.MustCompile(`<p class="headline" id="headline">([^<]*)</p>`)
	firstColumn := regexp.MustCompile(`<table class="scores" id="result"><thead><tr><th scope="col">[^<]*</th><th scope="col">[^<]*</th><th scope="col">([^<]*)</th>`)
	told := map[int]string{}
	for i, r := range readers {
		body := html.UnescapeString(e.speaking("en").open(id, i).Body)
		m := headline.FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no headline on the finished page", r.name)
		}
		want := m[1]
		told[i] = want
		fate := -1
		for k, d := range decided[r.lang] {
			if strings.HasPrefix(want, d[0]) {
				fate = k
			}
		}
		if fate < 0 {
			t.Errorf("%s (%s): the headline %q does not say what decided the ranking in the reader's language", r.name, r.lang, want)
			continue
		}
		if c := firstColumn.FindStringSubmatch(body); c == nil || c[1] != decided[r.lang][fate][1] {
			t.Errorf("%s (%s): the result table's first figure is %v, not %q under %q", r.name, r.lang, c, decided[r.lang][fate][1], want)
		}
		turn := `id="turn">` + api.PageCatalog.T(r.lang, "play.finished") + " " + want + `</p>`
		if !strings.Contains(body, turn) {
			t.Errorf("%s (%s): the status line is not %q", r.name, r.lang, turn)
		}
		if caption := "<caption>" + api.PageCatalog.T(r.lang, "audit.chart."+bagpipes.Name) + "</caption>"; !strings.Contains(body, caption) || !strings.Contains(caption, decided[r.lang][1][1]) {
			t.Errorf("%s (%s): the round-by-round table is not headed %s (the gold it tells)", r.name, r.lang, caption)
		}
		result := body[strings.Index(body, `id="h-result"`):]
		result = result[:strings.Index(result, `class="meta"`)]
		for _, wrong := range []string{"points", "punti", ">" + api.PageCatalog.T(r.lang, "play.score") + "<"} {
			if strings.Contains(result, wrong) {
				t.Errorf("%s (%s): the finished page's result shows %q, which decided nothing:\n%s", r.name, r.lang, wrong, result)
			}
		}
	}
	rows, err := e.pool.Query(ctx, `SELECT seat, payload FROM outbox WHERE game_id = $1 AND kind = 'game_over'`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	emails := 0
	for rows.Next() {
		var seat int
		var pl outbox.Payload
		if err := rows.Scan(&seat, &pl); err != nil {
			t.Fatal(err)
		}
		emails++
		if pl.Summary != told[seat] || len(pl.Columns) != 2 || len(pl.Ranking) != len(readers) || len(pl.Ranking[0].Cells) != 2 {
			t.Errorf("seat %d: the game-over email tells %q %v %+v, the page %q", seat, pl.Summary, pl.Columns, pl.Ranking, told[seat])
		}
	}
	if emails != len(readers) {
		t.Errorf("%d game-over emails, want %d", emails, len(readers))
	}
}
