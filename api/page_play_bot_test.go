package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/api"
	"pbem/engine/lords"
	"pbem/events/tokens"
)

// TestBotSeatPageOffersNoMove: once the organiser hands a person's seat to
// a bot, that person's page says so, in the page's language, on its turn
// too ("the bot that plays it is choosing its move", never "Your turn"),
// offers no move and no take-back, and keeps the table, the history link
// and the table talk. A move posted from a page opened before the hand-off
// (plain or asking for its confirmation) plays nothing and is answered
// plainly: a bot plays the seat, the organiser can hand it back.
func TestBotSeatPageOffersNoMove(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	for _, lang := range []string{"en", "fr", "it"} {
		T := func(key string, args ...any) string { return api.PageCatalog.T(lang, key, args...) }
		id := e.createGame(lords.Name, 2, lang, "")
		seat := e.toMove(id)
		name := []string{"Ann", "Bob"}[seat]
		b := e.browser()
		b.open(id, seat)
		before := moveForm(t, b.get("/play/"+id).Body)
		if len(before.moves) == 0 {
			t.Fatalf("%s: the seat to move has no move before the hand-off", lang)
		}
		if _, err := e.svc.SeatBot(ctx, id, tokens.Admin(secret, id, 0), seat, "normal"); err != nil {
			t.Fatal(err)
		}
		sm, err := e.svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		p := b.get("/play/" + id)
		body := htmlUnescape(p.Body)
		for _, want := range []string{T("play.you_are_bot", name), T("play.bot_turn"), T("play.tab_bot_turn", T("game."+lords.Name)),
			`id="live-table"`, `id="chat-text"`, `/play/` + id + `/history`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the bot seat's page lacks %q", lang, want)
			}
		}
		for _, not := range []string{T("play.your_turn"), T("bar.choose"), `id="moves-form"`, `name="move"`, `id="takeback"`, `class="tile playable"`} {
			if strings.Contains(body, not) {
				t.Errorf("%s: the bot seat's page shows %q", lang, not)
			}
		}
		if t.Failed() {
			t.Fatalf("%s page:\n%s", lang, p.Body)
		}
		// The page's own version (stale: the hand-off is an event) and the
		// game's current one (a hand-made form).
		for _, ver := range []string{before.version, num(sm.Version)} {
			for _, path := range []string{"/play/" + id, "/play/" + id + "?confirm=ask"} {
				r := b.post(path, url.Values{"csrf": {before.csrf}, "version": {ver}, "move": {before.moves[0]}})
				if r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/play/"+id+"?n=") {
					t.Fatalf("%s: a move posted to %s at version %s on the bot's seat: %d %s", lang, path, ver, r.Status, r.Header.Get("Location"))
				}
				got := htmlUnescape(b.get(r.Header.Get("Location")).Body)
				if !strings.Contains(got, T("play.bot_refused")) || strings.Contains(got, T("play.stale")) {
					t.Fatalf("%s: the refusal at version %s does not say a bot plays the seat:\n%s", lang, ver, got)
				}
			}
		}
		after, err := e.svc.Summary(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if after.Version != sm.Version {
			t.Fatalf("%s: a move posted for the bot's seat changed the game: version %d, then %d", lang, sm.Version, after.Version)
		}
	}
}

// TestBotSeatPageShowsNothingHidden plays a game of Lords of Scotland in
// which a bot plays Ann's seat (handed over by the organiser) and Bob plays
// through the pages: after every move, Ann's page, which the bot's seat
// still shows her, names no card hidden from her seat and offers no move.
func TestBotSeatPageShowsNothingHidden(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame(lords.Name, 2, "en", "")
	if _, err := e.svc.SeatBot(ctx, id, tokens.Admin(secret, id, 0), 0, "strong"); err != nil {
		t.Fatal(err)
	}
	ann, bob := e.browser(), e.browser()
	ann.open(id, 0)
	bob.open(id, 1)
	botMoves := 0
	for step := 0; step < 30; step++ {
		body := ann.get("/play/" + id).Body
		hidden := hiddenFrom(t, e, id, 1, 0)
		for _, m := range reRank.FindAllStringSubmatch(body, -1) {
			if hidden[m[1]] {
				t.Fatalf("step %d: the bot seat's page shows card %s hidden from it", step, m[1])
			}
		}
		if f := moveForm(t, body); len(f.moves) > 0 {
			t.Fatalf("step %d: the bot seat's page offers moves %v", step, f.moves)
		}
		switch e.toMove(id) {
		case -1:
			step = 30
		case 0:
			played, err := e.svc.PlayBot(ctx, id, 0)
			if err != nil || !played {
				t.Fatalf("step %d: the bot did not play: %v %v", step, played, err)
			}
			botMoves++
		case 1:
			f := moveForm(t, bob.get("/play/"+id).Body)
			mv := f.moves[step%len(f.moves)]
			if p := bob.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {mv}}); p.Status != http.StatusSeeOther ||
				!strings.HasSuffix(p.Header.Get("Location"), "n=played") {
				t.Fatalf("step %d: Bob's move %s: %d %s", step, mv, p.Status, p.Header.Get("Location"))
			}
		}
	}
	if botMoves == 0 {
		t.Fatal("the bot never played: the test saw no page of its turn")
	}
}

// TestFinishedBotSeatPageSaysNothingOfHandingBack (a user trial: a
// finished game still told Alice, whose seat a bot played, "a bot plays
// your seat for now. The organiser can hand it back to you"): once the
// game is over, the page of a seat a bot played says only whom its reader
// played, as every finished page does.
func TestFinishedBotSeatPageSaysNothingOfHandingBack(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame(lords.Name, 2, "en", "")
	if _, err := e.svc.SeatBot(ctx, id, tokens.Admin(secret, id, 0), 0, "easy"); err != nil {
		t.Fatal(err)
	}
	e.playWithBots(id, 5000)
	body := htmlUnescape(e.browser().open(id, 0).Body)
	T := func(key string, args ...any) string { return api.PageCatalog.T("en", key, args...) }
	if !strings.Contains(body, `<p class="you">`+T("play.you_played", "Ann")+`</p>`) || strings.Contains(body, "hand it back") {
		t.Errorf("the finished page of the bot's seat does not say only whom its reader played:\n%s", body)
	}
}
