package api_test

import (
	"context"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

// TestHistoryTellsForcedSteps plays the test game with forced draws until
// the service plays them (both hands empty after the third round of
// cards), and reads the history page in each language: a forced step is
// told as played for its player, "the only move" (the audit page, open
// once the game has ended, names actors by the same actorWords).
func TestHistoryTellsForcedSteps(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	for lang, want := range map[string]string{"en": "played for Ann: the only move", "fr": "joué pour Ann\u00a0: le seul coup possible",
		"it": "giocata per Ann: l'unica mossa possibile"} {
		id := e.createGame(testgame.Name, 2, lang, `{"target":1000,"forced":true}`)
		for i := range 6 {
			seat := i % 2
			tok := tokens.Seat(secret, id, seat, 0)
			v, err := e.svc.View(ctx, id, tok)
			if err != nil {
				t.Fatal(err)
			}
			card := ""
			for _, m := range v.LegalMoves {
				if mv := m.(testgame.Move); mv.Kind == "play" && card == "" {
					card = mv.Card
				}
			}
			if _, err := e.svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(`{"kind":"play","card":"` + card + `"}`)}); err != nil {
				t.Fatalf("%s move %d: %v", lang, i, err)
			}
		}
		b := e.browser()
		b.open(id, 1)
		p := b.get("/play/" + id + "/history")
		if body := html.UnescapeString(p.Body); !strings.Contains(body, want) {
			t.Errorf("%s: the history page does not say %q:\n%s", lang, want, p.Body)
		}
	}
}

// TestHistoryCreditsTheGamesOwnSteps: a move that ends a round is
// followed, in its append, by the round's end; the history page credits
// the card to its player and the round's end to the game, not to the
// player whose move led to it (a user trial read "Combat: ... · Amélie"
// and "The rewards are given. · Amélie"); the audit page of the ended
// game does the same. A seat's own decision naming another seat (a
// badge given) is the seat's, and the muster's end is the game's.
func TestHistoryCreditsTheGamesOwnSteps(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame(testgame.Name, 2, "en", `{"target":1000,"rounds":1}`)
	for seat := range 2 {
		tok := tokens.Seat(secret, id, seat, 0)
		v, err := e.svc.View(ctx, id, tok)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range v.LegalMoves {
			if mv := m.(testgame.Move); mv.Kind == "play" {
				if _, err := e.svc.Move(ctx, id, tok, play.MoveRequest{Version: v.Version, Move: play.PostedMove(`{"kind":"play","card":"` + mv.Card + `"}`)}); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	b := e.browser()
	b.open(id, 1)
	lines := map[string]string{} // a line's summary -> who it credits
	for _, m := range historyLineRE.FindAllStringSubmatch(html.UnescapeString(b.get("/play/"+id+"/history").Body), -1) {
		lines[m[1]] = m[2]
	}
	for what, who := range map[string]string{"Round 1 ends.": "the game", "The game ends.": "the game"} {
		if got, ok := lines[what]; !ok || got != who {
			t.Errorf("the history credits %q to %q, want %q (lines: %q)", what, got, who, lines)
		}
	}
	for line, got := range lines {
		if strings.HasPrefix(line, "Bob plays ") && got != "Bob" || strings.HasPrefix(line, "Ann plays ") && got != "Ann" {
			t.Errorf("the history credits %q to %q", line, got)
		}
	}
	audit := html.UnescapeString(b.get("/games/" + id + "/audit").Body)
	if !strings.Contains(audit, "Round 1 ends.</span> · the game ·") {
		t.Errorf("the audit page does not credit the round's end to the game:\n%s", audit)
	}

	// A seat's own decision that names another seat is the seat's ("Alice
	// gives the badge of honour to Giulia. · the game", a user trial).
	id = e.createGame(bagpipes.Name, 4, "en", "")
	b.open(id, 0)
	gives := regexp.MustCompile(`^(\w+) gives the badge of honour to `)
	credited := 0
	for tries := 0; credited == 0 && tries < 40 && e.toMove(id) >= 0; tries++ {
		e.playSome(id, uint64(tries), 10)
		for _, m := range historyLineRE.FindAllStringSubmatch(html.UnescapeString(b.get("/play/"+id+"/history").Body), -1) {
			if g := gives.FindStringSubmatch(m[1]); g != nil {
				credited++
				if m[2] != g[1] {
					t.Errorf("the history credits %q to %q, not to its giver", m[1], m[2])
				}
			}
		}
	}
	if credited == 0 {
		t.Error("no badge was given in the game played")
	}

	// The muster's end is the game's, not the last answerer's ("Everyone
	// has answered: the game begins. · Giulia").
	id, _ = musterGame(t, e, "")
	for seat := range 3 {
		if err := e.svc.AnswerAs(ctx, id, seat, true, "k"+strconv.Itoa(seat)); err != nil {
			t.Fatal(err)
		}
	}
	b.open(id, 0)
	lines = map[string]string{}
	for _, m := range historyLineRE.FindAllStringSubmatch(html.UnescapeString(b.get("/play/"+id+"/history").Body), -1) {
		lines[m[1]] = m[2]
	}
	if got := lines["Everyone has answered: the game begins."]; got != "the game" {
		t.Errorf("the history credits the muster's end to %q, want the game (lines: %q)", got, lines)
	}
}

// historyLineRE reads a history page's line: its summary and whom it
// credits.
var historyLineRE = regexp.MustCompile(`<p class="what">([^<]*)</p><p class="meta"><time[^>]*>[^<]*</time> · ([^<]*)</p>`)

// TestHistoryCreditsABotOnlyItsOwnMoves: in a game with a bot, the steps
// the game takes after the bot's move (the next seat's turn beginning, a
// recruit turned face-up, a round's end) are the game's on the history
// page; the bot is credited only with lines about its own seat (a user
// trial read "Round 1, turn 2: Anna turns the recruit Cockburn 3 face-up ·
// a bot (normal)"), and named as the players' table of the play page names
// its seat, "Robot 1 (bot)"; once the game is over, its ratings and the
// leaderboard name the bot's level in the same words, "Bot (normal)" (a
// user trial met "a bot (normal)", "Robot 1" and "Robot normal").
func TestHistoryCreditsABotOnlyItsOwnMoves(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	cg, err := e.svc.Create(t.Context(), play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name, Language: "en",
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}, {Bot: "normal"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := cg.ID
	e.playWithBots(id, 3000)
	b := e.browser()
	b.open(id, 0)
	bot, game := 0, 0
	for _, m := range historyLineRE.FindAllStringSubmatch(html.UnescapeString(b.get("/play/"+id+"/history").Body), -1) {
		switch line, who := m[1], m[2]; who {
		case "Robot 1 (bot)":
			bot++
			if !strings.HasPrefix(line, "Robot 1 ") {
				t.Errorf("the history credits the bot with %q", line)
			}
		case "the game":
			game++
		}
	}
	if bot == 0 || game == 0 {
		t.Fatalf("the history credits %d lines to the bot, %d to the game", bot, game)
	}
	if _, err := e.svc.RefreshRecords(t.Context()); err != nil {
		t.Fatal(err)
	}
	if p := html.UnescapeString(b.get("/play/" + id).Body); !strings.Contains(p, ">Robot 1 (bot)<") || !strings.Contains(p, `<th scope="row">Bot (normal)</th>`) {
		t.Errorf("the finished game's page does not name the bot \"Robot 1 (bot)\" and its rating's row \"Bot (normal)\":\n%s", p)
	}
	for lang, level := range map[string]string{"en": "Bot (normal)", "fr": "Robot (normal)", "it": "Bot (normale)"} {
		if p := b.get("/leaderboards/" + lords.Name + "?lang=" + lang); !strings.Contains(html.UnescapeString(p.Body), `<th scope="row">`+level+`</th>`) {
			t.Errorf("the %s leaderboard does not name the bot %q:\n%s", lang, level, p.Body)
		}
	}
}
