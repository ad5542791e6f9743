package notify

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"pbem/engine"
	"pbem/engine/i18n"
	"pbem/engine/i18n/i18ntest"
	"pbem/projections"
	"pbem/projections/outbox"
)

// TestEmailPlurals is the table of the emails' counted texts: points in
// the final ranking, games waiting in the digest's subject.
func TestEmailPlurals(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"en", "rank", []any{1, "Ann", 1}, "1. Ann: 1 point"},
		{"en", "rank", []any{2, "Bob", 0}, "2. Bob: 0 points"},
		{"en", "rank", []any{1, "Ann", 42}, "1. Ann: 42 points"},
		{"fr", "rank", []any{1, "Ann", 1}, "1. Ann\u00a0: 1 point"},
		{"fr", "rank", []any{2, "Bob", 0}, "2. Bob\u00a0: 0 point"},
		{"fr", "rank", []any{1, "Ann", 42}, "1. Ann\u00a0: 42 points"},
		{"it", "rank", []any{1, "Ann", 1}, "1. Ann: 1 punto"},
		{"it", "rank", []any{2, "Bob", 0}, "2. Bob: 0 punti"},
		{"en", "subject.digest", []any{1}, "Your games on pbem: 1 game waiting for you"},
		{"en", "subject.digest", []any{3}, "Your games on pbem: 3 games waiting for you"},
		{"fr", "subject.digest", []any{1}, "Vos parties sur pbem\u00a0: 1 partie en attente de votre coup"},
		{"fr", "subject.digest", []any{3}, "Vos parties sur pbem\u00a0: 3 parties en attente de votre coup"},
		{"it", "subject.digest", []any{1}, "Le tue partite su pbem: 1 partita in attesa della tua mossa"},
		{"it", "subject.digest", []any{3}, "Le tue partite su pbem: 3 partite in attesa della tua mossa"},
	}
	for _, c := range cases {
		if got := emailCatalog.T(c.lang, c.key, c.args...); got != c.want {
			t.Errorf("%s %s %v = %q, want %q", c.lang, c.key, c.args, got, c.want)
		}
	}
}

// TestEmailElision checks French elision where a substituted name
// follows "de" in an email, and Italian's "ad" for "a" before a name
// starting with a vowel, and nothing else changes.
func TestEmailElision(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, key string
		args      []any
		want      string
	}{
		{"fr", "round_end.intro", []any{"Épées", "Ann, Bob"}, "Une manche d'Épées avec Ann, Bob est terminée. Qui a récupéré quoi\u00a0:"},
		{"fr", "round_end.intro", []any{"Lords of Scotland", "Ann, Bob"}, "Une manche de Lords of Scotland avec Ann, Bob est terminée. Qui a récupéré quoi\u00a0:"},
		{"fr", "invitation.intro", []any{"Aventure", "Élodie"}, "Vous êtes invité·e à une partie d'Aventure avec Élodie. Votre place vous attend."},
		{"it", "invitation.intro", []any{"Aventure", "Élodie"}, "Hai un invito a una partita di Aventure con Élodie. Il tuo posto ti aspetta."},
		// Italian's "a" takes its d before a vowel (a user trial read
		// "Tocca a Amélie").
		{"it", "answer.not_your_turn", []any{"", "", "Amélie"}, "Tocca ad Amélie, non a te: niente è stato giocato. Riceverai un'email quando sarà il tuo turno."},
		{"it", "answer.not_your_turn", []any{"", "", "Giulia"}, "Tocca a Giulia, non a te: niente è stato giocato. Riceverai un'email quando sarà il tuo turno."},
	}
	for _, c := range cases {
		if got := emailCatalog.T(c.lang, c.key, c.args...); got != c.want {
			t.Errorf("%s %s %v = %q, want %q", c.lang, c.key, c.args, got, c.want)
		}
	}
}

// emailPayloads are payloads of every kind as the service writes them in
// lang: every part of every email shows (lines, ranking, digest with
// table talk, numbered moves, every answer to a reply).
func emailPayload(k outbox.Kind, lang string) outbox.Payload {
	dl := time.Date(2026, 3, 4, 18, 30, 0, 0, time.UTC)
	lines := map[string][]string{
		"en": {"Ann recruits Fergusson 12 face-up.", "Élodie claims the supporter."},
		"fr": {"Ann recrute Fergusson 12 face visible.", "Élodie récupère le partisan."},
		"it": {"Ann recluta Fergusson 12 scoperta.", "Élodie rivendica il supporter."},
	}[lang]
	p := outbox.Payload{
		To:       outbox.Recipient{Seat: 1, Name: "Élodie", Email: "elodie@example.org"},
		Language: lang,
		Game:     outbox.GameInfo{ID: "g1abc", Name: "lords-of-scotland", Players: []string{"Ann", "Élodie", "Robot"}, Bots: []string{"", "", "easy"}},
		TokenGen: 1, Version: 12, Deadline: &dl,
		Lines:   lines,
		Ranking: []outbox.Rank{{Seat: 1, Name: "Élodie", Place: 1, Score: 1}, {Seat: 0, Name: "Ann", Place: 2, Score: 0}},
		Summary: lines[1],
		Moves:   lines,
		Choice:  "c1",
	}
	switch k {
	case outbox.Digest:
		p.Games = []outbox.WaitingGame{{Game: outbox.GameInfo{ID: "g2", Name: "swords-and-bagpipes", Players: []string{"Élodie", "Cid"}},
			Seat: 0, Deadline: &dl, Chat: []string{"Cid\u00a0: bien joué"}}}
	case outbox.Reply:
		p.Answer = &outbox.Answer{Says: []string{outbox.AnswerPlayed, outbox.AnswerPosted, outbox.AnswerMovedOn, outbox.AnswerStale, outbox.AnswerHistoryCut, outbox.AnswerUnreadable, outbox.AnswerNotAwaited, outbox.AnswerRefused, outbox.AnswerChatFailed, outbox.AnswerEnded, outbox.AnswerForced, outbox.AnswerTimedOut},
			Move: lines[0], Quote: []string{"chat: ciao"}, Detail: "it is not your turn", Code: engine.CodeNotYourTurn,
			Forced: lines[1:], TimedOut: "bot"}
	case outbox.Chat:
		p.Lines = []string{"Ann : ciao !"}
	case outbox.RoundEnd:
		p.Awaited = true // to the seat the round's end gives the turn to: it asks its move
	case outbox.Away:
		p.Notice, p.AwayDate, p.AwayDaysLeft, p.AwayDays = "away", "2026-12-12", 20, 30
		p.Games = []outbox.WaitingGame{{Game: outbox.GameInfo{ID: "g2", Name: "swords-and-bagpipes", Players: []string{"Élodie", "Cid"}},
			Seat: 0, Away: "wait", AwayWaits: &dl}, {Game: outbox.GameInfo{ID: "g3", Name: "lords-of-scotland", Players: []string{"Élodie", "Ann"}},
			Seat: 1, Away: "bot"}, {Game: outbox.GameInfo{ID: "g4", Name: "lords-of-scotland", Players: []string{"Élodie", "Bob"}},
			Seat: 1, Away: "forbid"}}
	}
	return p
}

// allowedInEmails are the English phrases of the emails' catalog that
// French and Italian share (the test checks they are the language's own
// text too). "Re:" is the reply prefix mail clients use in every language;
// "Points" heads the final table's score column in French as in English.
var allowedInEmails = map[string][]string{
	"fr": {"Re:", "Points"},
	"it": {"Re:"},
}

// TestEveryEmailIsTranslated renders every kind of email in French and in
// Italian and fails on any text of the English catalog left in the
// subject, the text part or the HTML part.
func TestEveryEmailIsTranslated(t *testing.T) {
	t.Parallel()
	r, err := NewRenderer(RenderConfig{Secret: []byte("test-secret"), PublicURL: "https://pbem.example.org/", ReplyDomain: "reply.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"fr", "it"} {
		if bad := i18ntest.Allowed(emailCatalog, lang, allowedInEmails[lang]); len(bad) > 0 {
			t.Errorf("%s: allowed phrases that are not %s text: %q", lang, lang, bad)
		}
		for _, k := range outbox.Kinds() {
			b, err := json.Marshal(emailPayload(k, lang))
			if err != nil {
				t.Fatal(err)
			}
			m, err := r.Render(Row{ID: 3, GameID: "g1abc", Seat: 1, Kind: k, Payload: b})
			if err != nil {
				t.Fatalf("%s %s: %v", lang, k, err)
			}
			texts := append([]string{m.Subject}, i18ntest.TextLines(m.Text)...)
			htmlTexts, err := i18ntest.HTMLTexts(m.HTML)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, htmlTexts...)
			for _, l := range i18ntest.Untranslated(emailCatalog, texts, allowedInEmails[lang]) {
				t.Errorf("%s %s: %v", lang, k, l)
			}
			for _, want := range []string{emailCatalog.T(lang, "hello", "Élodie"), emailCatalog.T(lang, "footer.why")} {
				if !strings.Contains(m.Text, want) {
					t.Errorf("%s %s: the text part lacks %q", lang, k, want)
				}
			}
			if k == outbox.Reply && (strings.Contains(m.Text, "it is not your turn") ||
				!strings.Contains(m.Text, projections.ExplainError(lang, engine.CodeNotYourTurn, ""))) {
				t.Errorf("%s reply: the refusal is not explained in %s:\n%s", lang, lang, m.Text)
			}
			if k == outbox.GameOver && !strings.Contains(m.Text, emailCatalog.T(lang, "rank", 1, "Élodie", 1)) {
				t.Errorf("%s game over: no singular point in\n%s", lang, m.Text)
			}
		}
	}
}

// TestEnglishEmailsAreFlagged makes sure the check above can fail: the
// English emails hold English phrases.
func TestEnglishEmailsAreFlagged(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	b, err := json.Marshal(emailPayload(outbox.YourTurn, "en"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := r.Render(Row{ID: 3, GameID: "g1abc", Seat: 1, Kind: outbox.YourTurn, Payload: b})
	if err != nil {
		t.Fatal(err)
	}
	if got := i18ntest.Untranslated(emailCatalog, i18ntest.TextLines(m.Text), nil); len(got) < 3 {
		t.Errorf("only %v found in an English email", got)
	}
	if i18n.Norm(m.Language) != "en" {
		t.Errorf("language %q", m.Language)
	}
}
