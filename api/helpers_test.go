package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
	"pbem/engine"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

var secret = []byte("api test secret")

// env is a running API on a fresh database.
type env struct {
	t    *testing.T
	url  string
	svc  *play.Service
	repo *postgres.Repo
	pool *pgxpool.Pool
	srv  *api.Server
	now  *time.Time
}

func newEnv(t *testing.T, games ...engine.Game) *env {
	t.Helper()
	if len(games) == 0 {
		games = []engine.Game{testgame.Game{}}
	}
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	repo := postgres.New(pool)
	now := time.Now().UTC()
	e := &env{t: t, repo: repo, pool: pool, now: &now}
	e.svc = play.New(play.Config{Games: engine.NewRegistry(games...), Store: store, Repo: repo, Accounts: playpg.New(pool), Visits: playpg.New(pool),
		Records: repo, Secret: secret, Now: func() time.Time { return *e.now }, Seeds: playtest.Seeds(t.Name())})
	e.srv = api.New(api.Config{Service: e.svc})
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	e.url = hs.URL
	return e
}

// do sends a request and decodes the JSON answer into out (if not nil).
func (e *env) do(method, path, token string, body any, out any) int {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			e.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

type created struct {
	ID         string `json:"id"`
	AdminToken string `json:"admin_token"`
	Seats      []struct {
		Seat int    `json:"seat"`
		Name string `json:"name"`
	} `json:"seats"`
}

func (e *env) create(game string, n int, options string) created {
	e.t.Helper()
	names := []string{"Ann", "Bob", "Cid", "Dee", "Eve"}
	var players []map[string]string
	for i := range n {
		players = append(players, map[string]string{"name": names[i], "email": names[i] + "@example.org"})
	}
	body := map[string]any{"game": game, "players": players, "options": json.RawMessage(options),
		"organiser": map[string]string{"name": "Org", "email": "org@example.org"}}
	return e.createConfirmed(body)
}

// createConfirmed proposes a game (POST /api/v1/games, body marshalled as
// JSON) and confirms it as its organiser would with the emailed link.
func (e *env) createConfirmed(body any) created {
	e.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		e.t.Fatal(err)
	}
	st, out := proposeAndConfirm(e.t, e.url, string(b))
	var c created
	if st != http.StatusCreated || json.Unmarshal([]byte(out), &c) != nil {
		e.t.Fatalf("propose and confirm: status %d: %s", st, out)
	}
	return c
}

// proposeAndConfirm posts body to POST /api/v1/games and confirms the
// proposal as its organiser would with the emailed link; it returns the
// status and body of the last answer.
func proposeAndConfirm(t testing.TB, base, body string) (int, string) {
	t.Helper()
	post := func(u, body string) (int, string) {
		resp, err := http.Post(u, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(b)
	}
	st, out := post(base+"/api/v1/games", body)
	if st != http.StatusAccepted {
		return st, out
	}
	var p struct{ ID string }
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	return post(base+"/api/v1/confirm/"+tokens.Confirm(secret, p.ID), "")
}

// seatToken is the token the invitation email of seat carries.
func seatToken(id string, seat int) string { return tokens.Seat(secret, id, seat, 0) }

type viewBody struct {
	GameID     string            `json:"game_id"`
	Seat       int               `json:"seat"`
	Version    int64             `json:"version"`
	Status     string            `json:"status"`
	ToMove     []int             `json:"to_move"`
	LegalMoves []json.RawMessage `json:"legal_moves"`
	State      json.RawMessage   `json:"state"`
	Deadline   *time.Time        `json:"deadline"`
}

type errBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type summaryBody struct {
	Status  string `json:"status"`
	Version int64  `json:"version"`
	ToMove  []int  `json:"to_move"`
	Result  *struct {
		Ranking []struct {
			Seat  int    `json:"seat"`
			Name  string `json:"name"`
			Place int    `json:"place"`
			Score int    `json:"score"`
		} `json:"ranking"`
	} `json:"result"`
}
