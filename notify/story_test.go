package notify

import (
	"encoding/json"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/projections/outbox"
)

func TestCheckZone(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"Europe/Paris", "America/Argentina/Buenos_Aires", "UTC", "Asia/Kolkata"} {
		if _, err := CheckZone(ok); err != nil {
			t.Errorf("CheckZone(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "Local", "Mars/Olympus", "../../../etc/passwd", "Europe/Paris\n", strings.Repeat("x", 65)} {
		if _, err := CheckZone(bad); err == nil {
			t.Errorf("CheckZone(%q) accepted", bad)
		}
	}
}

// storyRow is the sample your-turn (or round-end) row with a story.
func storyRow(t *testing.T, kind outbox.Kind, lang string, s *Story) Row {
	r := sampleRow(t, kind, lang)
	r.Story = s
	return r
}

func TestYourTurnTellsTheStoryGroupedByPlayer(t *testing.T) {
	t.Parallel()
	s := &Story{Events: []StoryEvent{
		{Version: 3, Actor: "seat:0", Seat: 0, Summary: "Ann mustered Scott 7 face-up"},
		{Version: 4, Actor: "seat:0", Seat: 0, Summary: "Ann used the power of Scott 7"},
		{Version: 5, Actor: "system", Seat: -1, Summary: "Time ran out for Cid"},
		{Version: 6, Actor: "admin", Seat: -1, Summary: "The deadline is extended"},
		{Version: 7, Actor: "bot:easy", Seat: 1, Summary: "Bob <b> passed"},
		// The game's own steps after Bob's bot's move: told as the game's.
		{Version: 8, Actor: "bot:easy", Seat: -1, Step: true, Summary: "The round ends"},
		{Version: 9, Actor: "bot:easy", Seat: 0, Step: true, Summary: "Ann's turn begins"},
		// A seatless event of the bot's own (not a step): stays with it.
		{Version: 10, Actor: "bot:easy", Seat: 1, Summary: "Bob <b> draws"},
		{Version: 11, Actor: "bot:easy", Seat: -1, Summary: "Bob <b> says nothing"},
	}}
	m, err := testRenderer(t).Render(storyRow(t, outbox.YourTurn, "fr", s))
	if err != nil {
		t.Fatal(err)
	}
	want := "Depuis votre dernier coup\u00a0:\n\nAnn\u00a0:\n- Ann mustered Scott 7 face-up\n- Ann used the power of Scott 7\n\nTemps écoulé\u00a0:\n- Time ran out for Cid\n\nL'organisateur·rice\u00a0:\n- The deadline is extended\n\nBob <b>\u00a0:\n- Bob <b> passed\n\nLa partie\u00a0:\n- The round ends\n- Ann's turn begins\n\nBob <b>\u00a0:\n- Bob <b> draws\n- Bob <b> says nothing\n"
	if !strings.Contains(m.Text, want) {
		t.Errorf("text part lacks\n%s\nin\n%s", want, m.Text)
	}
	if strings.Contains(m.Text, "Ann claims the Earl of Mar") {
		t.Errorf("the payload's lines are shown beside the story:\n%s", m.Text)
	}
	if !strings.Contains(m.HTML, "<li>Bob &lt;b&gt; passed</li>") || !strings.Contains(m.HTML, "<strong>Bob &lt;b&gt;\u00a0:</strong>") {
		t.Errorf("HTML part does not escape the story:\n%s", m.HTML)
	}
}

// TestTurnSeat: an event belongs to the turn of its acting seat, else of
// the seat its data names (a default move played when time ran out).
func TestTurnSeat(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		actor, key, data string
		want             int
	}{
		{"seat:2", "", `{"seat":0}`, 2},
		{"bot:normal", "seat:1:bot:v4", `{}`, 1},
		{"system", "", `{"seat":1}`, 1},
		{"system", "", `{"seats":[1],"policy":"default_move"}`, -1},
		{"system", "", `{"seat":3}`, -1}, // no such seat
		{"admin", "", `not json`, -1},
	} {
		if got := TurnSeat(c.actor, c.key, json.RawMessage(c.data), 3); got != c.want {
			t.Errorf("TurnSeat(%q, %q, %s) = %d, want %d", c.actor, c.key, c.data, got, c.want)
		}
	}
}

// TestEmailsWithoutANameGreetPlainly: an email to an address whose
// owner's name is not known (a sign-in link, the digest) greets with
// "Hello," and never with the address; an email without a play link (a
// notice to a player whose seat went to another) does not promise that
// play links keep working, nor does a new link's email, which says the
// older links no longer work.
func TestEmailsWithoutANameGreetPlainly(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	for _, lang := range []string{"en", "fr", "it"} {
		for _, k := range []outbox.Kind{outbox.Signin, outbox.Digest, outbox.Confirm} {
			p := samplePayload(lang)
			p.To.Name = ""
			row := sampleRow(t, k, lang)
			row.Payload = mustJSON(t, p)
			m, err := r.Render(row)
			if err != nil {
				t.Fatal(err)
			}
			hello := emailCatalog.T(lang, "hello.anon")
			if !strings.HasPrefix(m.Text, hello+"\n") || !strings.Contains(m.HTML, "<p>"+hello+"</p>") || strings.Contains(m.Text, "bob@example.org,") {
				t.Errorf("%s %s greets:\n%s", lang, k, m.Text)
			}
		}
		p := samplePayload(lang)
		p.Notice = "left"
		p.To.Seat = -1
		row := sampleRow(t, outbox.Notice, lang)
		row.Seat = -1
		row.Payload = mustJSON(t, p)
		m, err := r.Render(row)
		if err != nil {
			t.Fatal(err)
		}
		always, links := emailCatalog.T(lang, "footer.always"), emailCatalog.T(lang, "footer.links")
		if strings.Contains(m.Text, always) || !strings.Contains(m.Text, links) || strings.Contains(m.Text, "/play/") {
			t.Errorf("%s: the notice to a player who left:\n%s", lang, m.Text)
		}
		m, err = r.Render(sampleRow(t, outbox.Link, lang))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(m.Text, always) || strings.Contains(m.HTML, always) || !strings.Contains(m.Text, links) {
			t.Errorf("%s: a new link's email says the old links keep working:\n%s", lang, m.Text)
		}
		m, err = r.Render(sampleRow(t, outbox.YourTurn, lang))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.Text, always) || !strings.Contains(m.HTML, always) {
			t.Errorf("%s: a your-turn email does not say its links keep working:\n%s", lang, m.Text)
		}
	}
}

func TestDeadlineInTheRecipientsZone(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	// The sample deadline is 2026-03-04 18:30 UTC.
	for lang, want := range map[string]string{
		"en": "Please play before Wed 4 Mar 2026, 19:30 (Europe/Paris).",
		"fr": "Merci de jouer avant le 05/03/2026 à 03:30 (Asia/Tokyo).",
		"it": "Gioca entro il 04/03/2026 alle 18:30 UTC, per favore.",
	} {
		zone := map[string]string{"en": "Europe/Paris", "fr": "Asia/Tokyo", "it": ""}[lang]
		m, err := r.Render(storyRow(t, outbox.YourTurn, lang, &Story{Zone: zone}))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.Text, want) || !strings.Contains(m.HTML, want) {
			t.Errorf("%s: no %q in\n%s", lang, want, m.Text)
		}
	}
	// A digest tells each game's deadline in the zone its worker found.
	m, err := r.Render(storyRow(t, outbox.Digest, "en", &Story{Zone: "America/New_York"}))
	if err != nil || !strings.Contains(m.Text, "play before Wed 4 Mar 2026, 13:30 (America/New_York)") {
		t.Errorf("digest: %v\n%s", err, m.Text)
	}
	// An unknown zone (say, from before a time zone database update)
	// falls back to UTC, labelled.
	m, err = r.Render(storyRow(t, outbox.YourTurn, "en", &Story{Zone: "Mars/Olympus"}))
	if err != nil || !strings.Contains(m.Text, "Please play before Wed 4 Mar 2026, 18:30 UTC.") {
		t.Errorf("unknown zone: %v\n%s", err, m.Text)
	}
}

func TestPleasePlayBeforeOnlyToAwaitedSeats(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	for _, k := range []outbox.Kind{outbox.RoundEnd, outbox.Notice, outbox.Timeout, outbox.Invitation} {
		for _, awaited := range []bool{false, true} {
			row := sampleRow(t, k, "en")
			p := samplePayload("en")
			p.Awaited = awaited
			row.Payload = mustJSON(t, p)
			m, err := r.Render(row)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(m.Text, "Please play before"); got != awaited {
				t.Errorf("%s email, awaited %v: says please play before: %v\n%s", k, awaited, got, m.Text)
			}
		}
	}
}

func TestRoundEndShowsTheRoundSummary(t *testing.T) {
	t.Parallel()
	s := &Story{Rounds: []*engine.RoundSummary{{Round: 2, Columns: []string{"Armée", "Total"},
		Rows:  []engine.RoundRow{{Seat: 1, Cells: []string{"Scott 7, Scott 9", "32"}}, {Seat: 0, Cells: []string{"aucune", "0"}}},
		Notes: []string{"Bob prend l'initiative."}}}}
	m, err := testRenderer(t).Render(storyRow(t, outbox.RoundEnd, "fr", s))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Manche 2\u00a0:\nBob <b>\u00a0: Armée\u00a0: Scott 7, Scott 9\u202f; Total\u00a0: 32\nAnn\u00a0: Armée\u00a0: aucune\u202f; Total\u00a0: 0\nBob prend l'initiative.\n"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	if !strings.Contains(m.Text, "Une manche de Lords of Scotland avec Ann, Bob <b> est terminée.") || strings.Contains(m.Text, "Qui a récupéré quoi") ||
		!strings.Contains(m.Text, "Ce qui s'est passé\u00a0:\n- Ann claims the Earl of Mar\n") {
		t.Errorf("a round-end email with a summary does not open with it and list the lines after it:\n%s", m.Text)
	}
	if !strings.Contains(m.HTML, "<strong>Bob &lt;b&gt;</strong><br>Armée\u00a0: Scott 7, Scott 9<br>Total\u00a0: 32</p>") {
		t.Errorf("HTML lacks Bob's block:\n%s", m.HTML)
	}
}

func TestNoticeSubjects(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	for notice, want := range map[string]string{"paused": "La partie est en pause — ", "resumed": "La partie reprend — ", "extended": "Plus de temps pour jouer — "} {
		row := sampleRow(t, outbox.Notice, "fr")
		p := samplePayload("fr")
		p.Notice = notice
		row.Payload = mustJSON(t, p)
		m, err := r.Render(row)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(m.Subject, want) || !strings.Contains(m.Text, "Des nouvelles de votre partie") {
			t.Errorf("%s notice: %q\n%s", notice, m.Subject, m.Text)
		}
	}
}

func TestEmailsReadWellOnAPhone(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	for _, k := range outbox.Kinds() {
		m, err := r.Render(sampleRow(t, k, "it"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.HTML, `<meta name="viewport" content="width=device-width, initial-scale=1">`) {
			t.Errorf("%s: no viewport", k)
		}
		if strings.Contains(m.HTML, "font-size:small") || strings.Contains(m.HTML, "<table") && k != outbox.GameOver {
			t.Errorf("%s: small print or a table on a phone:\n%s", k, m.HTML)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRoundEndSpeaksTheGamesWords: a round of Lords of Scotland is a
// "schermaglia" in its Italian rulebook, a round of Swords and Bagpipes
// stays a "round" (i18n.Catalog.Variant).
func TestRoundEndSpeaksTheGamesWords(t *testing.T) {
	t.Parallel()
	r := testRenderer(t)
	sum := &Story{Rounds: []*engine.RoundSummary{{Round: 2, Columns: []string{"Totale"}, Rows: []engine.RoundRow{{Seat: 0, Cells: []string{"12"}}}}}}
	for _, tc := range []struct {
		game, subject, body, not string
	}{
		{"lords-of-scotland", "Fine della schermaglia — ", "Una schermaglia di Lords of Scotland con Ann, Bob <b> è finita.\n\nSchermaglia 2:", "round"},
		{"swords-and-bagpipes", "Fine del round — ", "Un round di Swords and Bagpipes con Ann, Bob <b> è finito.\n\nRound 2:", "schermaglia"},
	} {
		row := storyRow(t, outbox.RoundEnd, "it", sum)
		p := samplePayload("it")
		p.Game.Name = tc.game
		row.Payload = mustJSON(t, p)
		m, err := r.Render(row)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(m.Subject, tc.subject) || !strings.Contains(m.Text, tc.body) ||
			strings.Contains(strings.ToLower(m.Subject+m.Text), tc.not) {
			t.Errorf("%s round-end email in Italian: %q\n%s", tc.game, m.Subject, m.Text)
		}
	}
}

// TestTheGamesStepsAfterAForcedStepAreTheGames: a step played for a seat
// (its only move) is told under "played for" its player; the round's end
// and battle that follow it in its append are the game's (a user trial
// read "End of round 1; the camps are emptied." under "Played for Amélie:
// the only move").
func TestTheGamesStepsAfterAForcedStepAreTheGames(t *testing.T) {
	t.Parallel()
	s := &Story{Events: []StoryEvent{
		{Version: 3, Actor: "seat:1", Seat: 1, Summary: "Bob plays the last card"},
		{Version: 4, Actor: "forced:0", Seat: 0, Summary: "Ann passes the badge"},
		{Version: 5, Actor: "forced:0", Seat: 0, Step: true, Summary: "The battle: Scotland wins"},
		{Version: 6, Actor: "forced:0", Seat: 0, Step: true, Summary: "End of round 1"},
	}}
	m, err := testRenderer(t).Render(storyRow(t, outbox.YourTurn, "en", s))
	if err != nil {
		t.Fatal(err)
	}
	want := "Bob <b>:\n- Bob plays the last card\n\nPlayed for Ann: the only move:\n- Ann passes the badge\n\nThe game:\n- The battle: Scotland wins\n- End of round 1\n"
	if !strings.Contains(m.Text, want) {
		t.Errorf("text part lacks\n%s\nin\n%s", want, m.Text)
	}
}

// TestGameOverShowsTheLastRound: the game's end is owed no round-end email
// of its own, so the game-over email tells the last round's table after
// the final ranking (two user trials missed the final battle).
func TestGameOverShowsTheLastRound(t *testing.T) {
	t.Parallel()
	s := &Story{Rounds: []*engine.RoundSummary{{Round: 5, Columns: []string{"Armée", "Total"},
		Rows: []engine.RoundRow{{Seat: 1, Cells: []string{"Scott 7", "7"}}, {Seat: 0, Cells: []string{"aucune", "0"}}}}}}
	m, err := testRenderer(t).Render(storyRow(t, outbox.GameOver, "fr", s))
	if err != nil {
		t.Fatal(err)
	}
	want := "\n\nManche 5\u00a0:\nBob <b>\u00a0: Armée\u00a0: Scott 7\u202f; Total\u00a0: 7\nAnn\u00a0: Armée\u00a0: aucune\u202f; Total\u00a0: 0\n"
	if !strings.Contains(m.Text, want) || strings.Index(m.Text, "Manche 5\u00a0:") < strings.Index(m.Text, "Bob wins.") {
		t.Errorf("the game-over text lacks the last round after the result %q:\n%s", want, m.Text)
	}
	if !strings.Contains(m.HTML, "<strong>Bob &lt;b&gt;</strong><br>Armée\u00a0: Scott 7<br>Total\u00a0: 7</p>") {
		t.Errorf("the game-over HTML lacks the last round:\n%s", m.HTML)
	}
	m, err = testRenderer(t).Render(storyRow(t, outbox.GameOver, "fr", &Story{}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(m.Text, "Manche") {
		t.Errorf("a game-over email without a round tells one:\n%s", m.Text)
	}
}
