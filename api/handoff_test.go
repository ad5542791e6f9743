package api_test

import (
	"context"
	"encoding/json"
	"html"
	"math/rand/v2"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/play/playtest"
	"pbem/events/tokens"
	"pbem/notify/smtpsink"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// pendingMail is how many emails wait: in the outbox, and the your-turn
// emails owed on the games' rows that the worker writes when it runs
// (games.turn_mail, migration 0101).
func (e *pageEnv) pendingMail() int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM `+playtest.MailSQL+` m WHERE status = 'pending'`).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// forgetMail drops the emails waiting in the outbox (a test that reads
// only the emails of what follows).
func (e *pageEnv) forgetMail() {
	e.t.Helper()
	// A your-turn email owed but not yet written waits on its game's row
	// (games.turn_mail, migration 0101): forgotten too.
	if _, err := e.pool.Exec(context.Background(), `DELETE FROM outbox`); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.pool.Exec(context.Background(), `UPDATE games SET turn_mail = NULL, turn_due = NULL WHERE turn_mail IS NOT NULL`); err != nil {
		e.t.Fatal(err)
	}
}

// letters delivers every pending email over SMTP on loopback and returns
// each recipient's emails' text parts.
func (e *pageEnv) letters() map[string][]string {
	e.t.Helper()
	out := map[string][]string{}
	for _, m := range deliverOutbox(e.t.(*testing.T), e.pool, e.url, e.pendingMail()) {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			e.t.Fatal(err)
		}
		to, err := mail.ParseAddress(p.Header.Get("To"))
		if err != nil {
			e.t.Fatal(err)
		}
		out[to.Address] = append(out[to.Address], p.Text)
	}
	return out
}

// playUntilSeat plays pseudo-random legal moves (through the service, as each
// awaited seat) until seat has played one.
func (e *pageEnv) playUntilSeat(id string, seat int, rng *rand.Rand) {
	e.t.Helper()
	ctx := context.Background()
	for range 200 {
		s := e.toMove(id)
		if s < 0 {
			e.t.Fatalf("game %s ended before seat %d played", id, seat)
		}
		v, err := playtest.SeatView(ctx, e.svc, secret, id, s)
		if err != nil {
			e.t.Fatal(err)
		}
		mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		if err != nil {
			e.t.Fatal(err)
		}
		if _, err := e.svc.MoveAs(ctx, id, s, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
			e.t.Fatalf("move of seat %d: %v", s, err)
		}
		if s == seat {
			return
		}
	}
	e.t.Fatalf("seat %d never played", seat)
}

var reAuditRow = regexp.MustCompile(`<strong>(\d+)</strong> <span class="what">([^<]*)</span>(?: · ([^<]*?))? · <time`)

// TestHandOffsNotifyEveryoneAndAuditNamesAuthors: mid-game, the organiser
// gives Cid's seat to Dee and hands Bob's to a bot and back. Over SMTP on
// loopback: Dee gets her invitation; Cid a notice that he no longer plays,
// without a link; Ann and Bob a notice of the replacement; everyone (Bob,
// whose seat the bot plays, included) a notice of the bot; Bob his new link
// when his seat comes back, the others a notice. Cid's old link says what
// happened. The audit and the history name each act's author as of the
// act: Cid's move and chat stay Cid's, Dee's are Dee's.
func TestHandOffsNotifyEveryoneAndAuditNamesAuthors(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame(testgame.Name, 3, "en", `{"target":60}`)
	admin := tokens.Admin(secret, id, 0)
	rng := rand.New(rand.NewPCG(5, 9))
	e.playUntilSeat(id, 2, rng)
	if err := e.svc.ChatAs(ctx, id, 2, "Cid was here", "chat-cid"); err != nil {
		t.Fatal(err)
	}
	e.forgetMail()

	sm, err := e.svc.ReplacePlayer(ctx, id, admin, 2, "Dee", "dee@example.org")
	if err != nil {
		t.Fatal(err)
	}
	replacedAt := sm.Version
	got := e.letters()
	if len(got) != 4 || len(got["dee@example.org"]) != 1 || len(got["cid@example.org"]) != 1 ||
		len(got["ann@example.org"]) != 1 || len(got["bob@example.org"]) != 1 {
		t.Fatalf("emails of the replacement: %v", got)
	}
	cid := got["cid@example.org"][0]
	t.Logf("Cid's notice:\n%s", cid)
	if !strings.Contains(cid, "Dee") || !strings.Contains(cid, "no longer opens the game") || strings.Contains(cid, "/play/") {
		t.Fatalf("Cid's notice:\n%s", cid)
	}
	if ann := got["ann@example.org"][0]; !strings.Contains(ann, "Dee") || !strings.Contains(ann, "/play/"+id) {
		t.Fatalf("Ann's notice of the replacement:\n%s", ann)
	}
	// Cid's old link says what happened.
	b := e.browser()
	p := b.get("/play/" + id + "?token=" + tokens.Seat(secret, id, 2, 0))
	if p.Status != 401 || !strings.Contains(html.UnescapeString(p.Body), "gave your seat to another player") ||
		!strings.Contains(html.UnescapeString(p.Body), "Cid's seat is played by Dee") || strings.Contains(p.Body, "latest email") {
		t.Fatalf("Cid's old link: %d\n%s", p.Status, p.Body)
	}

	// Bob's seat to a bot: everyone is told, Bob too.
	if _, err := e.svc.SeatBot(ctx, id, admin, 1, "easy"); err != nil {
		t.Fatal(err)
	}
	got = e.letters()
	for _, who := range []string{"ann", "bob", "dee"} {
		if l := got[who+"@example.org"]; len(l) != 1 || !strings.Contains(l[0], "Bob is now played by a bot") {
			t.Fatalf("%s's notice of the bot: %v", who, got)
		}
	}
	if len(got) != 3 {
		t.Fatalf("emails of the hand-off: %v", got)
	}
	mg, err := postgres.New(e.pool).MyGames(ctx, "bob@example.org")
	if err != nil || len(mg) != 1 || !mg[0].BotPlayed() {
		t.Fatalf("Bob's games while a bot plays his seat: %+v %v", mg, err)
	}
	// And back: Bob gets a new link, the others a notice.
	if _, err := e.svc.SeatBot(ctx, id, admin, 1, ""); err != nil {
		t.Fatal(err)
	}
	got = e.letters()
	if len(got) != 3 || !strings.Contains(got["ann@example.org"][0], "Bob plays again") ||
		!strings.Contains(got["bob@example.org"][0], "/play/"+id) || !strings.Contains(got["dee@example.org"][0], "Bob plays again") {
		t.Fatalf("emails of the seat back: %v", got)
	}

	// Dee plays and talks; the game ends; its audit names each author.
	e.playUntilSeat(id, 2, rng)
	if err := e.svc.ChatAs(ctx, id, 2, "Dee now", "chat-dee"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Abort(ctx, id, admin); err != nil {
		t.Fatal(err)
	}
	a, err := e.svc.Audit(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	actor := map[int64]string{}
	for _, ev := range a.Events {
		actor[ev.Version] = ev.Meta.Actor
	}
	page := b.get("/games/" + id + "/audit")
	rows := reAuditRow.FindAllStringSubmatch(page.Body, -1)
	if page.Status != 200 || len(rows) != len(a.Events) {
		t.Fatalf("audit: %d, %d rows for %d events", page.Status, len(rows), len(a.Events))
	}
	cids, dees := 0, 0
	for _, r := range rows {
		v, _ := strconv.ParseInt(r[1], 10, 64)
		if actor[v] != "seat:2" {
			continue
		}
		want := "Cid"
		if v > replacedAt {
			want = "Dee"
		}
		if text := html.UnescapeString(r[2]); strings.HasPrefix(text, "Round ") && strings.HasSuffix(text, " ends.") {
			// A round's end, in the append of a move of seat 2: the game's step.
			if r[3] != "the game" {
				t.Errorf("audit v%d (%s) credited to %q, want the game", v, text, r[3])
			}
			continue
		}
		if r[3] != want {
			t.Errorf("audit v%d (%s) credited to %q, want %q", v, html.UnescapeString(r[2]), r[3], want)
		}
		if strings.Contains(r[2], "was here") && !strings.Contains(r[2], "Cid") || strings.Contains(r[2], "Dee now") && !strings.Contains(r[2], "Dee") {
			t.Errorf("audit chat line v%d: %s", v, r[2])
		}
		if want == "Cid" {
			cids++
		} else {
			dees++
		}
	}
	if cids < 2 || dees < 2 {
		t.Fatalf("audit rows of seat 2: %d of Cid, %d of Dee (want a move and a chat line each)", cids, dees)
	}
	// The history (Ann's) names them as of the act too.
	ann := e.browser()
	ann.open(id, 0)
	h := html.UnescapeString(ann.get("/play/" + id + "/history").Body)
	if !strings.Contains(h, "Cid") || !strings.Contains(h, "Dee") {
		t.Fatalf("Ann's history lacks Cid or Dee:\n%s", h)
	}
}

// TestGameFinishedByBotsEmailsEveryone: Ann and Bob hand their seats to
// bots; the bots finish the game; Ann and Bob each get the result email
// (and nothing asking them to play), and My games marks the game ended.
func TestGameFinishedByBotsEmailsEveryone(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	cg, err := e.svc.Create(ctx, play.CreateGame{Game: testgame.Name, Options: json.RawMessage(`{"target":20}`),
		Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Players:   []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}, {Bot: "normal"}}})
	if err != nil {
		t.Fatal(err)
	}
	id, admin := cg.ID, cg.AdminToken
	for seat := range 2 {
		if _, err := e.svc.SeatBot(ctx, id, admin, seat, "easy"); err != nil {
			t.Fatal(err)
		}
	}
	e.forgetMail()
	e.playWithBots(id, 2000)
	got := e.letters()
	if len(got) != 2 {
		t.Fatalf("emails once the bots finished: %v", got)
	}
	for _, who := range []string{"ann@example.org", "bob@example.org"} {
		l := got[who]
		if len(l) != 1 || !strings.Contains(l[0], "/games/"+id+"/audit") {
			t.Fatalf("%s's emails at the end: %v", who, l)
		}
	}
	mg, err := postgres.New(e.pool).MyGames(ctx, "ann@example.org")
	if err != nil || len(mg) != 1 || mg[0].Status != "finished" {
		t.Fatalf("Ann's games: %+v %v", mg, err)
	}
}

// TestCurrentLabelsNameWhoHoldsTheSeat: once Dee took Cid's seat of a
// Lords of Scotland game, the moves and the explanations each player is
// shown name Dee, never Cid (the engine state was dealt with Cid's name),
// in English and in the French of a seat that reads French.
func TestCurrentLabelsNameWhoHoldsTheSeat(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame("lords-of-scotland", 3, "en", `{}`)
	admin := tokens.Admin(secret, id, 0)
	if _, err := e.svc.ReplacePlayer(ctx, id, admin, 2, "Dee", "dee@example.org"); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.SetLanguage(ctx, id, tokens.Seat(secret, id, 1, 0), "fr", "lang-bob"); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 1))
	named := map[int]bool{} // seats shown a text naming Dee
	for range 400 {
		for seat := range 3 {
			v, err := playtest.SeatView(ctx, e.svc, secret, id, seat)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, m := range v.LegalMoves {
				texts = append(texts, m.Label())
			}
			for _, x := range v.Explanations {
				texts = append(texts, x.Text)
			}
			for _, s := range texts {
				if strings.Contains(s, "Cid") {
					t.Fatalf("seat %d (v%d) is shown the replaced player's name: %q", seat, v.Version, s)
				}
				if strings.Contains(s, "Dee") {
					named[seat] = true
				}
			}
		}
		if len(named) == 3 {
			return
		}
		s := e.toMove(id)
		if s < 0 {
			break
		}
		v, err := playtest.SeatView(ctx, e.svc, secret, id, s)
		if err != nil {
			t.Fatal(err)
		}
		mv, err := json.Marshal(v.LegalMoves[rng.IntN(len(v.LegalMoves))])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.MoveAs(ctx, id, s, play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv)}); err != nil {
			t.Fatalf("move of seat %d: %v", s, err)
		}
	}
	t.Fatalf("seats shown a text naming Dee: %v, want all three", named)
}

// TestReplacedPlayerIsToldOfPauseResumeAndEnd: Cid, who reads Italian,
// leaves his seat to Dee; over SMTP on loopback he is still told, in
// Italian and without a link to play, that the game is paused, that it
// resumes, and how it ended; Dee and the others are told as before.
func TestReplacedPlayerIsToldOfPauseResumeAndEnd(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	id := e.createGame(testgame.Name, 3, "en", `{"target":60}`)
	admin := tokens.Admin(secret, id, 0)
	if err := e.svc.SetLanguage(ctx, id, tokens.Seat(secret, id, 2, 0), "it", "lang-cid"); err != nil {
		t.Fatal(err)
	}
	e.forgetMail()
	if _, err := e.svc.ReplacePlayer(ctx, id, admin, 2, "Dee", "dee@example.org"); err != nil {
		t.Fatal(err)
	}
	got := e.letters()
	if l := got["cid@example.org"]; len(l) != 1 || strings.Contains(l[0], "/play/") || !strings.Contains(l[0], "Dee prende il posto di Cid") {
		t.Fatalf("Cid's notice of his replacement: %v", l)
	}
	cidOnly := func(step, want string) string {
		t.Helper()
		got := e.letters()
		for _, who := range []string{"ann", "bob", "dee", "cid"} {
			if len(got[who+"@example.org"]) != 1 {
				t.Fatalf("%s: %s's emails: %v", step, who, got)
			}
		}
		cid := got["cid@example.org"][0]
		if !strings.Contains(cid, want) || strings.Contains(cid, "/play/") {
			t.Fatalf("%s: Cid's email lacks %q or has a play link:\n%s", step, want, cid)
		}
		return cid
	}
	if _, err := e.svc.Pause(ctx, id, admin, ""); err != nil {
		t.Fatal(err)
	}
	cidOnly("pause", "La partita è in pausa")
	if _, err := e.svc.Resume(ctx, id, admin); err != nil {
		t.Fatal(err)
	}
	cidOnly("resume", "La partita riprende")
	if _, err := e.svc.Abort(ctx, id, admin); err != nil {
		t.Fatal(err)
	}
	end := cidOnly("end", "/games/"+id+"/audit")
	if !strings.Contains(end, "La partita è annullata") || strings.Contains(end, "Il tuo link") {
		t.Fatalf("Cid's email at the end:\n%s", end)
	}
}
