package api_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

// botGame is the request of a test game of Ann and two bots, its
// organiser Org.
func botGame() map[string]any {
	return map[string]any{"game": testgame.Name, "options": json.RawMessage(`{"target":30}`),
		"organiser": map[string]string{"name": "Org", "email": "org@example.org"},
		"players":   []map[string]string{{"name": "Ann", "email": "ann@example.org"}, {"bot": "easy"}, {"name": "Hal", "bot": "strong"}}}
}

// TestRematchWithTwoBotsAPI: the rematch of a game of a person and two
// bots is refused while the game runs (409), then deals the same seats,
// bots included (levels and names), with one invitation (Ann's) and the
// organiser's admin link; asked again, it answers the same game (200)
// and sends nothing more.
func TestRematchWithTwoBotsAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	c := e.createConfirmed(botGame())
	g := "/api/v1/games/" + c.ID
	var eb errBody
	if st := e.do("POST", g+"/admin/rematch", c.AdminToken, nil, &eb); st != http.StatusConflict || !strings.Contains(eb.Error.Message, "ended") {
		t.Fatalf("rematch mid-game: %d %+v", st, eb)
	}
	if st := e.do("POST", g+"/admin/abort", c.AdminToken, nil, nil); st != http.StatusOK {
		t.Fatalf("abort: %d", st)
	}
	var rm created
	if st := e.do("POST", g+"/admin/rematch", c.AdminToken, nil, &rm); st != http.StatusCreated || rm.ID == "" || rm.ID == c.ID || rm.AdminToken == "" {
		t.Fatalf("rematch: %d %+v", st, rm)
	}
	var sm botSummary
	if st := e.do("GET", "/api/v1/games/"+rm.ID, "", nil, &sm); st != http.StatusOK || len(sm.Seats) != 3 {
		t.Fatalf("rematch summary: %d %+v", st, sm)
	}
	want := []struct{ name, bot string }{{"Ann", ""}, {"Robot 1", "easy"}, {"Hal", "strong"}}
	for i, w := range want {
		if sm.Seats[i].Name != w.name || sm.Seats[i].Bot != w.bot {
			t.Fatalf("rematch seat %d: %+v, want %+v", i, sm.Seats[i], w)
		}
	}
	kinds := func(id string) map[string]int {
		rows, err := e.pool.Query(ctx, `SELECT kind || ' ' || coalesce(payload->'to'->>'email', '') FROM outbox WHERE game_id = $1`, id)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]int{}
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				t.Fatal(err)
			}
			out[k]++
		}
		return out
	}
	got := kinds(rm.ID)
	if len(got) != 2 || got["invitation ann@example.org"] != 1 || got["admin_link org@example.org"] != 1 {
		t.Fatalf("the rematch's emails: %v", got)
	}
	// Asked again: the same game, nothing more sent.
	var again created
	if st := e.do("POST", g+"/admin/rematch", c.AdminToken, nil, &again); st != http.StatusOK || again.ID != rm.ID {
		t.Fatalf("rematch again: %d %+v (first %s)", st, again, rm.ID)
	}
	if got2 := kinds(rm.ID); len(got2) != 2 || got2["invitation ann@example.org"] != 1 {
		t.Fatalf("the rematch's emails after asking again: %v", got2)
	}
	if err := e.svc.Verify(ctx, rm.ID); err != nil {
		t.Fatalf("verify rematch: %v", err)
	}
	if err := e.svc.Verify(ctx, c.ID); err != nil {
		t.Fatalf("verify after rematch: %v", err)
	}
}

// playWithBots plays game id to its end: each bot's seat by its bot, the
// others with pseudo-random legal moves.
func (e *pageEnv) playWithBots(id string, limit int) {
	e.t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 7))
	for range limit {
		sm, err := e.svc.Summary(ctx, id)
		if err != nil {
			e.t.Fatal(err)
		}
		if len(sm.ToMove) == 0 {
			return
		}
		seat := sm.ToMove[0]
		if sm.Seats[seat].Bot != "" {
			if ok, err := e.svc.PlayBot(ctx, id, seat); err != nil || !ok {
				e.t.Fatalf("bot of seat %d: %v %v", seat, ok, err)
			}
			continue
		}
		e.playRandomMove(id, seat, rng)
	}
	e.t.Fatalf("game %s did not end in %d moves", id, limit)
}

// TestRematchWithTwoBotsPage: the admin page offers no rematch mid-game;
// once the game (Ann and two bots) has ended, Ann's end page offers one:
// it opens her seat of the new game, whose bots are the same; the admin
// page's button then opens that same game's admin page.
func TestRematchWithTwoBotsPage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	ctx := context.Background()
	cg, err := e.svc.Create(ctx, play.CreateGame{Game: testgame.Name, Options: json.RawMessage(`{"target":20}`),
		Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Players:   []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Bot: "easy"}, {Name: "Hal", Bot: "strong"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := cg.ID
	adm := e.browser()
	adm.get("/admin/" + id + "?token=" + tokens.Admin(secret, id, 0))
	if a := adm.get("/admin/" + id); a.Status != http.StatusOK || strings.Contains(a.Body, `id="rematch"`) {
		t.Fatalf("admin page mid-game: %d, offers a rematch: %v", a.Status, strings.Contains(a.Body, `id="rematch"`))
	}
	ann := e.browser()
	if p := ann.open(id, 0); strings.Contains(p.Body, `/rematch"`) {
		t.Fatalf("play page mid-game offers a rematch:\n%s", p.Body)
	}
	e.playWithBots(id, 2000)
	p := ann.get("/play/" + id)
	m := reCSRF.FindStringSubmatch(p.Body)
	if p.Status != http.StatusOK || !strings.Contains(p.Body, `action="/play/`+id+`/rematch"`) || m == nil {
		t.Fatalf("end page without a rematch: %d\n%s", p.Status, p.Body)
	}
	r := ann.post("/play/"+id+"/rematch", url.Values{"csrf": {m[1]}})
	loc := r.Header.Get("Location")
	nid, ok := strings.CutPrefix(loc, "/play/")
	if r.Status != http.StatusSeeOther || !ok || nid == id {
		t.Fatalf("rematch from the end page: %d to %q\n%s", r.Status, loc, r.Body)
	}
	if np := ann.get(loc); np.Status != http.StatusOK || !strings.Contains(np.Body, "Ann") || !strings.Contains(np.Body, "Hal") {
		t.Fatalf("Ann's seat of the rematch: %d\n%s", np.Status, np.Body)
	}
	sm, err := e.svc.Summary(ctx, nid)
	if err != nil {
		t.Fatal(err)
	}
	if sm.Seats[0].Bot != "" || sm.Seats[1].Bot != "easy" || sm.Seats[2].Bot != "strong" || sm.Seats[2].Name != "Hal" {
		t.Fatalf("rematch seats %+v", sm.Seats)
	}
	// The organiser's button opens the same rematch.
	a := adm.get("/admin/" + id)
	m = reCSRF.FindStringSubmatch(a.Body)
	if !strings.Contains(a.Body, `id="rematch"`) || m == nil {
		t.Fatalf("admin page of the ended game without a rematch:\n%s", a.Body)
	}
	if r := adm.post("/admin/"+id, url.Values{"csrf": {m[1]}, "action": {"rematch"}}); r.Status != http.StatusSeeOther ||
		!strings.HasPrefix(r.Header.Get("Location"), "/admin/"+nid) {
		t.Fatalf("admin rematch: %d to %q (want %s)", r.Status, r.Header.Get("Location"), nid)
	}
	var games int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM games`).Scan(&games); err != nil || games != 2 {
		t.Fatalf("%d games, want the game and its one rematch", games)
	}
}
