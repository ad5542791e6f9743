package notify

import (
	"encoding/json"
	"html"
	"pbem/engine/i18n/i18ntest"
	"pbem/events/tokens"
	"pbem/projections/outbox"
	"strings"
	"testing"
	"time"
)

func testRenderer(t testing.TB) *Renderer {
	t.Helper()
	r, err := NewRenderer(RenderConfig{Secret: []byte("test-secret"), PublicURL: "https://pbem.example.org/"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func samplePayload(lang string) outbox.Payload {
	dl := time.Date(2026, 3, 4, 18, 30, 0, 0, time.UTC)
	return outbox.Payload{
		To:       outbox.Recipient{Seat: 1, Name: "Bob", Email: "bob@example.org"},
		Language: lang,
		Game:     outbox.GameInfo{ID: "g1abc", Name: "lords-of-scotland", Players: []string{"Ann", "Bob <b>"}},
		TokenGen: 2, Version: 12, Deadline: &dl,
		Lines:   []string{"Ann claims the Earl of Mar", "Bob claims nothing"},
		Ranking: []outbox.Rank{{Seat: 1, Name: "Bob", Place: 1, Score: 42}, {Seat: 0, Name: "Ann", Place: 2, Score: 30}},
		Summary: "Bob wins.",
		Games: []outbox.WaitingGame{{Game: outbox.GameInfo{ID: "g2", Name: "swords-and-bagpipes", Players: []string{"Bob", "Cid"}},
			Seat: 0, TokenGen: 0, Deadline: &dl}},
	}
}

// sampleAway is the sample payload of an Away email: what the away does
// in each game.
func sampleAway(lang string) outbox.Payload {
	p := samplePayload(lang)
	dl := *p.Deadline
	p.Notice, p.AwayDate, p.AwayDaysLeft, p.AwayDays = "away", "2026-12-12", 1, 30
	p.Games = []outbox.WaitingGame{{Game: outbox.GameInfo{ID: "g2", Name: "swords-and-bagpipes", Players: []string{"Bob", "Cid"}},
		Seat: 0, Away: "wait", AwayWaits: &dl}, {Game: outbox.GameInfo{ID: "g1abc", Name: "lords-of-scotland", Players: []string{"Ann", "Bob <b>"}},
		Seat: 1, TokenGen: 2, Away: "bot"}}
	return p
}

func sampleRow(t testing.TB, kind outbox.Kind, lang string) Row {
	t.Helper()
	p := samplePayload(lang)
	if kind == outbox.Away {
		p = sampleAway(lang)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return Row{ID: 7, GameID: "g1abc", Seat: 1, Kind: kind, Payload: b, Attempts: 1}
}

func TestEmailCatalogCheck(t *testing.T) {
	t.Parallel()
	if err := emailCatalog.Check(); err != nil {
		t.Fatal(err)
	}
	for _, k := range outbox.Kinds() {
		if !emailCatalog.Has("subject." + string(k)) {
			t.Errorf("the emails' catalog has no subject for %s", k)
		}
	}
}

// organiserLinks are the links the organiser's and sign-in emails of the
// sample row must carry.
var organiserLinks = map[outbox.Kind]string{
	outbox.Confirm:   "https://pbem.example.org/confirm/" + tokens.Confirm([]byte("test-secret"), "g1abc"),
	outbox.AdminLink: "https://pbem.example.org/admin/g1abc?token=" + tokens.Admin([]byte("test-secret"), "g1abc", 2), // the payload's generation
	outbox.Signin:    "https://pbem.example.org/signin/" + tokens.Signin([]byte("test-secret"), "g1abc"),
}

func TestRenderEveryKindAndLanguage(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	token := tokens.Seat([]byte("test-secret"), "g1abc", 1, 2)
	for _, lang := range []string{"en", "fr", "it"} {
		for _, k := range outbox.Kinds() {
			t.Run(lang+"/"+string(k), func(t *testing.T) {
				m, err := r.Render(sampleRow(t, k, lang))
				if err != nil {
					t.Fatal(err)
				}
				if m.Language != lang || m.To != "bob@example.org" || m.MessageID != "outbox-7.g1abc@pbem.example.org" {
					t.Errorf("message = %+v", m)
				}
				seatless := k == outbox.Confirm || k == outbox.AdminLink || k == outbox.Signin
				if k == outbox.Away && !strings.Contains(m.Subject, map[string]string{"en": "Sat 12 Dec 2026", "fr": "12/12/2026", "it": "12/12/2026"}[lang]) {
					t.Errorf("subject %q does not name the day the person is back", m.Subject)
				}
				if k != outbox.Digest && k != outbox.Signin && k != outbox.Away && (!strings.Contains(m.Subject, "Lords of Scotland") || !strings.Contains(m.Subject, "Ann, Bob <b>")) {
					t.Errorf("subject %q does not name the game and the players", m.Subject)
				}
				for _, body := range []string{m.Text, m.HTML} {
					if strings.Contains(body, "<no value>") || strings.Contains(body, "%!") {
						t.Errorf("body has a template hole:\n%s", body)
					}
					if !strings.Contains(body, "/mail/unsubscribe?token=") {
						t.Errorf("body has no unsubscribe link:\n%s", body)
					}
					if k != outbox.Digest && !seatless && !strings.Contains(body, "https://pbem.example.org/play/g1abc?token="+token) {
						t.Errorf("body has no play link:\n%s", body)
					}
					if seatless && strings.Contains(body, "/play/") {
						t.Errorf("an organiser's or sign-in email has a play link:\n%s", body)
					}
					if want := organiserLinks[k]; want != "" && !strings.Contains(body, want) {
						t.Errorf("%s email lacks its link %s:\n%s", k, want, body)
					}
					if k == outbox.Invitation && !strings.Contains(body, "https://pbem.example.org/mail/block?token=") {
						t.Errorf("invitation has no block link:\n%s", body)
					}
					if help := "https://pbem.example.org/help/lords-of-scotland?lang=" + lang; (k == outbox.Invitation) != strings.Contains(body, help) {
						t.Errorf("%s email and the help link %s:\n%s", k, help, body)
					}
					if k == outbox.Digest && !strings.Contains(body, "https://pbem.example.org/me") {
						t.Errorf("digest has no link to My games:\n%s", body)
					}
				}
				if k == outbox.Confirm || k == outbox.Signin {
					for _, body := range []string{m.Text, m.HTML} {
						if !strings.Contains(body, "2026") {
							t.Errorf("%s email does not say until when its link works (the payload's deadline, 4 March 2026):\n%s", k, body)
						}
					}
				}
				if k != outbox.Confirm && k != outbox.Reply && strings.HasPrefix(m.Subject, "Lords of Scotland") {
					t.Errorf("subject %q begins with the table, not with the news (a phone cuts it short)", m.Subject)
				}
				texts := append([]string{m.Subject}, i18ntest.TextLines(m.Text)...)
				htmlTexts, err := i18ntest.HTMLTexts(m.HTML)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range i18ntest.DeveloperStrings(append(texts, htmlTexts...)) {
					t.Errorf("%v", d)
				}
				if strings.Contains(m.HTML, "Bob <b>") {
					t.Error("HTML part does not escape names")
				}
				if k == outbox.GameOver {
					for _, want := range []string{"https://pbem.example.org/games/g1abc/audit?lang=" + lang, "42", "Bob wins."} {
						if !strings.Contains(m.Text, want) || !strings.Contains(m.HTML, want) {
							t.Errorf("game over email lacks %q:\n%s", want, m.Text)
						}
					}
				}
				if k == outbox.RoundEnd && !strings.Contains(m.Text, "Ann claims the Earl of Mar") {
					t.Errorf("round end email lacks the lines:\n%s", m.Text)
				}
				if k == outbox.Away {
					for _, want := range []string{emailCatalog.T(lang, "away.wait", "04/03/2026 à 18:30 UTC"), emailCatalog.T(lang, "away.bot"),
						emailCatalog.T(lang, "away.howback"), "https://pbem.example.org/play/g2?token=" + tokens.Seat([]byte("test-secret"), "g2", 0, 0)} {
						if lang == "fr" && !strings.Contains(m.Text, want) {
							t.Errorf("the away email lacks %q:\n%s", want, m.Text)
						}
					}
				}
				if (k == outbox.Digest || k == outbox.Away) && !strings.Contains(m.Text, "https://pbem.example.org/play/g2?token="+tokens.Seat([]byte("test-secret"), "g2", 0, 0)) {
					t.Errorf("digest lacks the waiting game's link:\n%s", m.Text)
				}
			})
		}
	}
}

func TestRenderLanguagesDiffer(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	subjects := map[string]string{}
	for _, lang := range []string{"en", "fr", "it"} {
		m, err := r.Render(sampleRow(t, outbox.YourTurn, lang))
		if err != nil {
			t.Fatal(err)
		}
		subjects[lang] = m.Subject
	}
	if subjects["en"] == subjects["fr"] || subjects["en"] == subjects["it"] || subjects["fr"] == subjects["it"] {
		t.Errorf("subjects not translated: %v", subjects)
	}
	// The news comes first: a phone shows the start of a subject.
	if !strings.HasPrefix(subjects["en"], "Your turn — ") || !strings.HasPrefix(subjects["fr"], "À vous de jouer — ") || !strings.HasPrefix(subjects["it"], "Tocca a te — ") {
		t.Errorf("subjects = %v", subjects)
	}
}

func TestRenderUnknownLanguageFallsBackToEnglish(t *testing.T) {
	t.Parallel()
	m, err := testRenderer(t).Render(sampleRow(t, outbox.YourTurn, "de"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Language != "en" || !strings.HasPrefix(m.Subject, "Your turn") {
		t.Errorf("got %s %q", m.Language, m.Subject)
	}
}

func TestRenderBadRowsArePermanentErrors(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	for name, row := range map[string]Row{
		"unknown kind":    {ID: 1, GameID: "g", Kind: "spam", Payload: json.RawMessage(`{"to":{"email":"a@b.c"}}`)},
		"no address":      {ID: 1, GameID: "g", Kind: outbox.YourTurn, Payload: json.RawMessage(`{}`)},
		"bad address":     {ID: 1, GameID: "g", Kind: outbox.YourTurn, Payload: json.RawMessage(`{"to":{"email":"a@b.c>\r\nBcc: x@y.z"}}`)},
		"not json":        {ID: 1, GameID: "g", Kind: outbox.YourTurn, Payload: json.RawMessage(`nope`)},
		"wrong json type": {ID: 1, GameID: "g", Kind: outbox.YourTurn, Payload: json.RawMessage(`{"to":"a@b.c"}`)},
	} {
		if _, err := r.Render(row); err == nil || !IsPermanent(err) {
			t.Errorf("%s: err = %v, want a permanent error", name, err)
		}
	}
}

func TestNewRendererChecksConfig(t *testing.T) {
	t.Parallel()
	for _, c := range []RenderConfig{
		{Secret: nil, PublicURL: "https://x.org"},
		{Secret: []byte("s"), PublicURL: "ftp://x.org"},
		{Secret: []byte("s"), PublicURL: ""},
	} {
		if _, err := NewRenderer(c); err == nil {
			t.Errorf("NewRenderer(%+v) = nil error", c)
		}
	}
}

func TestUnsubscribeToken(t *testing.T) {
	t.Parallel()
	secret := []byte("s3cret")
	tok := tokens.Unsubscribe(secret, " Ann@Example.org ")
	e, err := tokens.VerifyUnsubscribe(secret, tok)
	if err != nil || e != "ann@example.org" {
		t.Fatalf("verify = %q, %v", e, err)
	}
	for _, bad := range []string{"", "x", tok + "x", "YQ." + strings.SplitN(tok, ".", 2)[1], tokens.Unsubscribe([]byte("other"), "ann@example.org")} {
		if _, err := tokens.VerifyUnsubscribe(secret, bad); err == nil {
			t.Errorf("token %q verified", bad)
		}
	}
}

func TestGameTitle(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"lords-of-scotland": "Lords of Scotland", "swords-and-bagpipes": "Swords and Bagpipes", "": "pbem", "x": "X"} {
		if got := GameTitle(in); got != want {
			t.Errorf("GameTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOnlyEmailsWithMovesTellHowToSendSeveral: an email one may answer
// tells how to write to the table; only one that lists the reader's moves
// tells that an answer may hold several (a game-over email told it too).
func TestOnlyEmailsWithMovesTellHowToSendSeveral(t *testing.T) {
	t.Parallel()
	r, err := NewRenderer(RenderConfig{Secret: []byte("test-secret"), PublicURL: "https://pbem.example.org/", ReplyDomain: "reply.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "fr", "it"} {
		for _, k := range []outbox.Kind{outbox.YourTurn, outbox.GameOver, outbox.RoundEnd} {
			p := samplePayload(lang)
			if k == outbox.YourTurn {
				p.Moves = []string{"Recruit Wemyss 1", "Pass"}
			}
			b, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			m, err := r.Render(Row{ID: 7, GameID: "g1abc", Seat: 1, Kind: k, Payload: b, Attempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			chat, several := emailCatalog.T(lang, "chat.help"), emailCatalog.T(lang, "moves.several")
			for _, body := range []string{m.Text, m.HTML} {
				if !strings.Contains(body, html.EscapeString(chat)) && !strings.Contains(body, chat) {
					t.Errorf("%s %s: no word on table talk:\n%s", lang, k, body)
				}
				if has := strings.Contains(body, several) || strings.Contains(body, html.EscapeString(several)); has != (k == outbox.YourTurn) {
					t.Errorf("%s %s: tells how to send several moves: %v:\n%s", lang, k, has, body)
				}
			}
		}
	}
}

// TestGameOverTellsTheFiguresThatDecided: a game-over email's ranking
// shows the figures that ranked the seats under their headings (the
// payload's Columns and each rank's Cells, engine.Standings), not a
// "points" column that decided nothing (a user trial: "3. Bernard: 22
// points" below "2. Alice: 15 points", when the daggers decided).
func TestGameOverTellsTheFiguresThatDecided(t *testing.T) {
	r := testRenderer(t)
	for lang, line := range map[string]string{"en": "1. Giulia: Daggers 4, Gold 23", "fr": "1. Giulia\u00a0: Dagues 4, Or 23"} {
		p := samplePayload(lang)
		p.Columns = map[string][]string{"en": {"Daggers", "Gold"}, "fr": {"Dagues", "Or"}}[lang]
		p.Ranking = []outbox.Rank{{Seat: 2, Name: "Giulia", Place: 1, Cells: []string{"4", "23"}}, {Seat: 0, Name: "Alice", Place: 2, Cells: []string{"5", "15"}}}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := r.Render(Row{ID: 7, GameID: "g1abc", Seat: 1, Kind: outbox.GameOver, Payload: b, Attempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.Text, line) || strings.Contains(m.Text, "point") {
			t.Errorf("%s: the text part lacks %q or tells points:\n%s", lang, line, m.Text)
		}
		if !strings.Contains(m.HTML, ">"+p.Columns[0]+"</th>") || !strings.Contains(m.HTML, ">23</td>") || strings.Contains(m.HTML, ">Points</th>") {
			t.Errorf("%s: the HTML ranking is not by the deciding figures:\n%s", lang, m.HTML)
		}
	}
}
