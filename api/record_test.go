package api_test

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
)

// sessionOf signs email in through the service (a sign-in link used
// once) and returns the session token.
func sessionOf(t *testing.T, e *pageEnv, email string) string {
	t.Helper()
	ctx := context.Background()
	if err := e.svc.RequestSignin(ctx, email, "en"); err != nil {
		t.Fatal(err)
	}
	var id string
	if err := e.pool.QueryRow(ctx, `SELECT id FROM signin_links WHERE email = $1 ORDER BY created_at DESC, id LIMIT 1`, email).Scan(&id); err != nil {
		t.Fatal(err)
	}
	sess, err := e.svc.SignIn(ctx, tokens.Signin(secret, id))
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// getJSON gets path with the bearer token (none if "") and decodes the
// answer into out; it returns the status.
func getJSON(t *testing.T, e *pageEnv, path, bearer string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.url+path, nil)
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, b)
		}
	}
	if strings.Contains(string(b), "@example.org") && strings.HasPrefix(path, "/api/v1/leaderboards/") {
		t.Errorf("%s tells an address: %s", path, b)
	}
	return resp.StatusCode
}

// finishedLords plays n Lords of Scotland games between Ann and Bob to
// their end and folds the records.
func finishedLords(t *testing.T, e *pageEnv, n int) {
	t.Helper()
	for i := range n {
		id := e.createGame(lords.Name, 2, "en", "")
		e.playToEnd(id, uint64(5+i), 5000)
	}
	if _, err := e.svc.RefreshRecords(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestRecordEndpoints: GET /api/v1/me/record answers the session's own
// record (401 without one); GET /api/v1/leaderboards/{game} lists the
// people who chose it, by name, and nobody else (404 for no such game);
// My games shows the record and its switch, which lists Ann.
func TestRecordEndpoints(t *testing.T) {
	e := newPageEnv(t)
	finishedLords(t, e, 2)
	if code := getJSON(t, e, "/api/v1/me/record", "", nil); code != http.StatusUnauthorized {
		t.Fatalf("record without a session: %d", code)
	}
	var rec struct {
		GamesPlayed   int     `json:"games_played"`
		GamesFinished int     `json:"games_finished"`
		TurnsOwed     int     `json:"turns_owed"`
		Words         string  `json:"reliability_words"`
		Reliability   float64 `json:"reliability"`
		Listed        bool    `json:"listed_on_leaderboards"`
		Ratings       []struct {
			Game  string `json:"game"`
			Games int    `json:"games"`
		} `json:"ratings"`
	}
	ann := sessionOf(t, e, "ann@example.org")
	if code := getJSON(t, e, "/api/v1/me/record", ann, &rec); code != http.StatusOK || rec.GamesPlayed != 2 || rec.GamesFinished != 2 ||
		rec.TurnsOwed == 0 || rec.Reliability != 1 || rec.Words == "" || rec.Listed || len(rec.Ratings) != 1 || rec.Ratings[0].Game != lords.Name || rec.Ratings[0].Games != 2 {
		t.Fatalf("Ann's record: %d %+v", code, rec)
	}
	var board struct {
		Game    string `json:"game"`
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
	}
	if code := getJSON(t, e, "/api/v1/leaderboards/"+lords.Name, "", &board); code != http.StatusOK || board.Game != lords.Name || len(board.Players) != 0 {
		t.Fatalf("leaderboard before anyone chose it: %d %+v", code, board)
	}
	if code := getJSON(t, e, "/api/v1/leaderboards/chess", "", nil); code != http.StatusNotFound {
		t.Fatalf("leaderboard of no game: %d", code)
	}

	b := e.browser()
	signInAs(t, e, b, "ann@example.org")
	me := b.get("/me?lang=en")
	if me.Status != http.StatusOK || !strings.Contains(me.Body, `id="record"`) || !strings.Contains(me.Body, "2 played · 2 finished") ||
		!strings.Contains(me.Body, "Lords of Scotland") || strings.Contains(me.Body, `name="listed" value="on" checked`) {
		t.Fatalf("My games with a record: %d\n%s", me.Status, me.Body)
	}
	csrf := moveForm(t, me.Body).csrf
	if p := b.post("/me/leaderboards", url.Values{"csrf": {csrf}, "listed": {"on"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("list me: %d %s", p.Status, p.Body)
	}
	if code := getJSON(t, e, "/api/v1/leaderboards/"+lords.Name, "", &board); code != http.StatusOK || len(board.Players) != 1 || board.Players[0].Name != "Ann" {
		t.Fatalf("leaderboard after Ann chose it: %d %+v", code, board)
	}
	page := b.get("/leaderboards/" + lords.Name + "?lang=fr")
	if page.Status != http.StatusOK || !strings.Contains(page.Body, "Classement\u00a0: Lords of Scotland") || !strings.Contains(page.Body, "Ann") ||
		strings.Contains(page.Body, "Bob") || strings.Contains(page.Body, "@example.org") {
		t.Fatalf("leaderboard page: %d\n%s", page.Status, page.Body)
	}
	if p := b.post("/me/leaderboards", url.Values{"csrf": {csrf}}); p.Status != http.StatusSeeOther {
		t.Fatalf("unlist me: %d", p.Status)
	}
	if getJSON(t, e, "/api/v1/leaderboards/"+lords.Name, "", &board); len(board.Players) != 0 {
		t.Fatalf("leaderboard after Ann left it: %+v", board)
	}
	if p := b.post("/me/leaderboards", url.Values{"csrf": {"forged"}, "listed": {"on"}}); p.Status == http.StatusSeeOther {
		t.Fatalf("a forged form listed Ann: %d", p.Status)
	}
}

// TestConfirmShowsReliability: the organiser's confirmation page tells
// the reliability of each invited address that played before, in words,
// and nothing of a new one.
func TestConfirmShowsReliability(t *testing.T) {
	e := newPageEnv(t)
	finishedLords(t, e, 1)
	p, err := e.svc.Propose(context.Background(), play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name,
		Language: "en", Players: []play.NewPlayer{{Name: "Ann", Email: "Ann@Example.org"}, {Name: "Zoe", Email: "zoe@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	page := e.browser().get("/confirm/" + tokens.Confirm(secret, p.ID) + "?lang=en")
	if page.Status != http.StatusOK || strings.Count(page.Body, `class="reliability"`) != 1 || !strings.Contains(page.Body, "so far: Reliable") {
		t.Fatalf("confirmation page: %d\n%s", page.Status, page.Body)
	}
}

// TestFinishedGameShowsRatings: a finished game's page shows every seat
// its rating before and after the game, and links to the audit.
func TestFinishedGameShowsRatings(t *testing.T) {
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "fr", "")
	e.playToEnd(id, 5, 5000)
	if _, err := e.svc.RefreshRecords(context.Background()); err != nil {
		t.Fatal(err)
	}
	b := e.browser()
	b.get("/play/" + id + "?token=" + url.QueryEscape(tokens.Seat(secret, id, 1, 0)))
	page := b.get("/play/" + id)
	if page.Status != http.StatusOK || !strings.Contains(page.Body, `id="ratings"`) || strings.Count(page.Body, "<td>1500</td>") != 2 ||
		!strings.Contains(page.Body, `href="/games/`+id+`/audit?lang=fr"`) || !strings.Contains(page.Body, "Cotes (Glicko-2), avant et après cette partie") {
		t.Fatalf("finished game's page: %d\n%s", page.Status, page.Body)
	}
}

// putListed sends PUT /api/v1/me/leaderboards with body under the bearer
// token and returns the status and the answer's body.
func putListed(t *testing.T, e *pageEnv, bearer, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPut, e.url+"/api/v1/me/leaderboards", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestPutLeaderboardChoice: PUT /api/v1/me/leaderboards sets the
// session's choice as My games' form does (Ann appears on the JSON
// leaderboard and GET /api/v1/me/record says so, then leaves it); a body
// without "listed", with another field or of the wrong type is refused
// with 400 and changes nothing; no session is 401.
func TestPutLeaderboardChoice(t *testing.T) {
	e := newPageEnv(t)
	finishedLords(t, e, 1)
	ann := sessionOf(t, e, "ann@example.org")
	if code, _ := putListed(t, e, "", `{"listed": true}`); code != http.StatusUnauthorized {
		t.Fatalf("without a session: %d", code)
	}
	for _, bad := range []string{``, `{}`, `{"listed": "yes"}`, `{"listed": true, "game": "lords-of-scotland"}`, `{"listed": true} {}`} {
		if code, body := putListed(t, e, ann, bad); code != http.StatusBadRequest {
			t.Fatalf("body %q: %d %s", bad, code, body)
		}
	}
	var board struct {
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
	}
	if getJSON(t, e, "/api/v1/leaderboards/"+lords.Name, "", &board); len(board.Players) != 0 {
		t.Fatalf("a refused body listed someone: %+v", board)
	}
	if code, body := putListed(t, e, ann, `{"listed": true}`); code != http.StatusOK || body != `{"listed_on_leaderboards":true}`+"\n" {
		t.Fatalf("list me: %d %s", code, body)
	}
	var rec struct {
		Listed bool `json:"listed_on_leaderboards"`
	}
	if getJSON(t, e, "/api/v1/me/record", ann, &rec); !rec.Listed {
		t.Fatal("the record does not say Ann is listed")
	}
	if getJSON(t, e, "/api/v1/leaderboards/"+lords.Name, "", &board); len(board.Players) != 1 || board.Players[0].Name != "Ann" {
		t.Fatalf("leaderboard after the PUT: %+v", board)
	}
	if code, body := putListed(t, e, ann, `{"listed": false}`); code != http.StatusOK || body != `{"listed_on_leaderboards":false}`+"\n" {
		t.Fatalf("unlist me: %d %s", code, body)
	}
	if getJSON(t, e, "/api/v1/leaderboards/"+lords.Name, "", &board); len(board.Players) != 0 {
		t.Fatalf("leaderboard after Ann left it: %+v", board)
	}
}

// TestConfirmPageTellsLanguageAndAway: the confirmation page's recap tells
// the game's language and what a player's away does, which the lobby
// asked for and the recap left out (a user trial).
func TestConfirmPageTellsLanguageAndAway(t *testing.T) {
	e := newPageEnv(t)
	p, err := e.svc.Propose(context.Background(), play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: lords.Name,
		Language: "fr", AwayPolicy: "bot", Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Zoe", Email: "zoe@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	page := e.browser().get("/confirm/" + tokens.Confirm(secret, p.ID) + "?lang=it")
	body := html.UnescapeString(page.Body)
	for _, want := range []string{`<dd id="recap-language">Français</dd>`, `<dd id="recap-away">un bot gioca nel frattempo</dd>`} {
		if page.Status != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("the confirmation page lacks %s:\n%s", want, body)
		}
	}
}
