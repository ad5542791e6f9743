package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"pbem/projections/testgame"
)

// session signs email in through the JSON API and returns its session.
func (e *env) session(email string) string {
	e.t.Helper()
	if st := e.do("POST", "/api/v1/signin", "", map[string]string{"email": email}, nil); st != http.StatusAccepted {
		e.t.Fatalf("sign-in request: %d", st)
	}
	var s struct{ Session string }
	if st := e.do("POST", "/api/v1/signin/"+e.signinLink(email), "", nil, &s); st != http.StatusOK || s.Session == "" {
		e.t.Fatalf("sign in: %d", st)
	}
	return s.Session
}

// awayStatus is the answer of /api/v1/me/away.
type awayStatus struct {
	Until *time.Time `json:"until"`
	Date  string     `json:"date"`
	Games []struct {
		GameID    string     `json:"game_id"`
		Effect    string     `json:"effect"`
		WaitUntil *time.Time `json:"wait_until"`
	} `json:"games"`
	DaysAllowed int    `json:"days_allowed"`
	DaysLeft    int    `json:"days_left"`
	Latest      string `json:"latest"`
}

// TestAwayByTheAPI: POST /api/v1/me/away with a day in a zone, GET, and
// DELETE; bad days are 400 with the reason and change nothing, a second
// DELETE is 409, no session is 401; away_policy at creation is checked.
func TestAwayByTheAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	g := e.create(testgame.Name, 2, `{}`)
	sess := e.session("ann@example.org")
	var st awayStatus
	if code := e.do("GET", "/api/v1/me/away", sess, nil, &st); code != http.StatusOK || st.Until != nil || st.DaysLeft != 30 || st.DaysAllowed != 30 {
		t.Fatalf("status before: %d %+v", code, st)
	}
	if code := e.do("POST", "/api/v1/me/away", "", map[string]string{"until": "2099-01-01"}, nil); code != http.StatusUnauthorized {
		t.Fatalf("away without a session: %d", code)
	}
	var apiErr struct {
		Error struct{ Message string } `json:"error"`
	}
	for _, bad := range []map[string]string{
		{"until": "12 December"},
		{"until": e.now.Format(time.DateOnly)},
		{"until": e.now.AddDate(0, 0, 40).Format(time.DateOnly)},
		{"until": e.now.AddDate(0, 0, 3).Format(time.DateOnly), "zone": "Atlantis"},
	} {
		if code := e.do("POST", "/api/v1/me/away", sess, bad, &apiErr); code != http.StatusBadRequest || apiErr.Error.Message == "" {
			t.Errorf("away %v: %d %+v", bad, code, apiErr)
		}
	}
	day := e.now.AddDate(0, 0, 3).Format(time.DateOnly)
	if code := e.do("POST", "/api/v1/me/away", sess, map[string]string{"until": day, "zone": "Europe/Paris"}, &st); code != http.StatusOK {
		t.Fatalf("away: %d", code)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := time.ParseInLocation(time.DateOnly, day, paris)
	if st.Until == nil || !st.Until.Equal(want) || len(st.Games) != 1 || st.Games[0].GameID != g.ID || st.Games[0].Effect != "wait" {
		t.Fatalf("away status: %+v (want until %v)", st, want)
	}
	var n int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM events WHERE stream = $1 AND type = 'pbem.away'`, g.ID).Scan(&n); err != nil || n != 1 {
		t.Fatalf("pbem.away events: %d, %v", n, err)
	}
	if code := e.do("DELETE", "/api/v1/me/away", sess, nil, &st); code != http.StatusOK || st.Until != nil {
		t.Fatalf("back: %d %+v", code, st)
	}
	if code := e.do("DELETE", "/api/v1/me/away", sess, nil, &apiErr); code != http.StatusConflict || !strings.Contains(apiErr.Error.Message, "not away") {
		t.Fatalf("back twice: %d %+v", code, apiErr)
	}
	body := map[string]any{"game": testgame.Name, "away_policy": "sometimes", "organiser": map[string]string{"name": "Org", "email": "org@example.org"},
		"players": []map[string]string{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}}}
	if code := e.do("POST", "/api/v1/games", "", body, &apiErr); code != http.StatusBadRequest || !strings.Contains(apiErr.Error.Message, "away_policy") {
		t.Fatalf("a bad away policy: %d %+v", code, apiErr)
	}
}
