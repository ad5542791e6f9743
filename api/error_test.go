package api_test

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"pbem/events/tokens"
	"pbem/projections/testgame"
)

func TestErrorMatrix(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.create(testgame.Name, 3, `{}`)
	other := e.create(testgame.Name, 2, `{}`)
	g := "/api/v1/games/" + c.ID
	var v viewBody
	e.do("GET", g+"/view", seatToken(c.ID, 0), nil, &v)
	var hand struct {
		Hand []string `json:"hand"`
	}
	if err := json.Unmarshal(v.State, &hand); err != nil {
		t.Fatal(err)
	}
	notMine := "c1"
	for _, card := range []string{"c1", "c2", "c3", "c4"} {
		if !strings.Contains(string(v.State), `"`+card+`"`) {
			notMine = card
			break
		}
	}
	good := map[string]any{"version": v.Version, "move": v.LegalMoves[0]}
	players := `[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}]`
	cases := []struct {
		name, method, path, token string
		body                      any
		status                    int
		code                      string
	}{
		{"create: malformed JSON", "POST", "/api/v1/games", "", `{"game":`, 400, "invalid"},
		{"create: not an object", "POST", "/api/v1/games", "", `[1,2]`, 400, "invalid"},
		{"create: unknown field", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"players":` + players + `,"colour":"red"}`, 400, "invalid"},
		{"create: unknown player field", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"players":[{"name":"A","email":"a@b.example","age":3},{"name":"B","email":"b@b.example"}]}`, 400, "invalid"},
		{"create: unknown game", "POST", "/api/v1/games", "", `{"game":"chess","players":` + players + `}`, 400, "invalid"},
		{"create: bad email", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"players":[{"name":"A","email":"nope"},{"name":"B","email":"b@b.example"}]}`, 400, "invalid"},
		{"create: duplicate name", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"players":[{"name":"A","email":"a@b.example"},{"name":"a","email":"b@b.example"}]}`, 400, "invalid"},
		{"create: too few players", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"players":[{"name":"A","email":"a@b.example"}]}`, 400, "bad_options"},
		{"create: bad options", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"players":` + players + `,"options":{"bruce":true}}`, 400, "bad_options"},
		{"create: options not an object", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"players":` + players + `,"options":[1]}`, 400, "invalid"},
		{"create: bad language", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"language":"de","players":` + players + `}`, 400, "invalid"},
		{"create: bad deadline", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"turn_deadline":"soon","players":` + players + `}`, 400, "invalid"},
		{"create: reminder after deadline", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"turn_deadline":"2h","reminder_before":"3h","players":` + players + `}`, 400, "invalid"},
		{"create: no organiser", "POST", "/api/v1/games", "", `{"game":"count","players":` + players + `}`, 400, "invalid"},
		{"create: bad organiser email", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o"},"players":` + players + `}`, 400, "invalid"},
		{"confirm: unknown link", "POST", "/api/v1/confirm/nope", "", ``, 401, "unauthorized"},
		{"create: bad policy", "POST", "/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"timeout_policy":"coin","players":` + players + `}`, 400, "invalid"},
		{"summary: unknown game", "GET", "/api/v1/games/nope", "", nil, 404, "not_found"},
		{"view: no token", "GET", g + "/view", "", nil, 401, "unauthorized"},
		{"view: wrong token", "GET", g + "/view", "bogus", nil, 401, "unauthorized"},
		{"view: another game's token", "GET", g + "/view", seatToken(other.ID, 0), nil, 401, "unauthorized"},
		{"view: admin token", "GET", g + "/view", c.AdminToken, nil, 401, "unauthorized"},
		{"view: unknown game", "GET", "/api/v1/games/nope/view", seatToken(c.ID, 0), nil, 404, "not_found"},
		{"history: no token", "GET", g + "/history", "", nil, 401, "unauthorized"},
		{"move: no token", "POST", g + "/moves", "", good, 401, "unauthorized"},
		{"move: bad token", "POST", g + "/moves", "bogus", good, 401, "unauthorized"},
		{"move: unknown game", "POST", "/api/v1/games/nope/moves", seatToken(c.ID, 0), good, 404, "not_found"},
		{"move: malformed JSON", "POST", g + "/moves", seatToken(c.ID, 0), `{"version":`, 400, "invalid"},
		{"move: empty body", "POST", g + "/moves", seatToken(c.ID, 0), ``, 400, "invalid"},
		{"move: no version", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"move": v.LegalMoves[0]}, 400, "invalid"},
		{"move: no move", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version}, 400, "invalid"},
		{"move: move not an object", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version, "move": "draw"}, 400, "invalid"},
		{"move: unknown top-level field", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version, "move": v.LegalMoves[0], "x": 1}, 400, "invalid"},
		{"move: unknown field in the move", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version, "move": map[string]any{"kind": "draw", "label": "Draw a card", "extra": 1}}, 400, "bad_move"},
		{"move: unknown kind", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version, "move": map[string]any{"kind": "fly"}}, 400, "bad_move"},
		{"move: version a string", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": "1", "move": v.LegalMoves[0]}, 400, "invalid"},
		{"move: stale version", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version - 1, "move": v.LegalMoves[0]}, 409, "conflict"},
		{"move: future version", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version + 5, "move": v.LegalMoves[0]}, 409, "conflict"},
		{"move: not your turn", "POST", g + "/moves", seatToken(c.ID, 1), map[string]any{"version": v.Version, "move": map[string]any{"kind": "draw", "label": "Draw a card"}}, 403, "not_your_turn"},
		{"move: illegal (card not in hand)", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version, "move": map[string]any{"kind": "play", "card": notMine, "label": "Play"}}, 422, "illegal_move"},
		{"move: long id", "POST", g + "/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version, "move": v.LegalMoves[0], "id": strings.Repeat("x", 300)}, 400, "invalid"},
		{"audit: before the end", "GET", g + "/audit", "", nil, 403, "forbidden"},
		{"audit: unknown game", "GET", "/api/v1/games/nope/audit", "", nil, 404, "not_found"},
		{"admin: no token", "POST", g + "/admin/pause", "", nil, 401, "unauthorized"},
		{"admin: seat token", "POST", g + "/admin/pause", seatToken(c.ID, 0), nil, 401, "unauthorized"},
		{"admin: unknown game", "POST", "/api/v1/games/nope/admin/pause", c.AdminToken, nil, 404, "not_found"},
		{"admin: unknown field", "POST", g + "/admin/pause", c.AdminToken, `{"why":"tea"}`, 400, "invalid"},
		{"admin: resend without seat", "POST", g + "/admin/resend", c.AdminToken, `{}`, 400, "invalid"},
		{"admin: resend to no seat", "POST", g + "/admin/resend", c.AdminToken, `{"seat":9}`, 404, "not_found"},
		{"admin: extend without by", "POST", g + "/admin/extend", c.AdminToken, `{}`, 400, "invalid"},
		{"admin: extend by nonsense", "POST", g + "/admin/extend", c.AdminToken, `{"by":"-3h"}`, 400, "invalid"},
		{"admin: extend too far", "POST", g + "/admin/extend", c.AdminToken, `{"by":"400h"}`, 400, "invalid"},
		{"admin: resume an active game", "POST", g + "/admin/resume", c.AdminToken, nil, 409, "conflict"},
		{"no such route", "GET", "/api/v1/nothing", "", nil, 404, "not_found"},
		{"wrong method", "DELETE", g, "", nil, 405, "method_not_allowed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var eb errBody
			st := e.do(tc.method, tc.path, tc.token, tc.body, &eb)
			if st != tc.status || eb.Error.Code != tc.code || eb.Error.Message == "" {
				t.Fatalf("got %d %+v, want %d %s", st, eb.Error, tc.status, tc.code)
			}
		})
	}
	// The game has not moved through all of that.
	var sm summaryBody
	e.do("GET", g, "", nil, &sm)
	if sm.Version != v.Version {
		t.Fatalf("version %d after only failed requests, want %d", sm.Version, v.Version)
	}
}

func TestAdminActions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.create(testgame.Name, 2, `{}`)
	g := "/api/v1/games/" + c.ID
	var v viewBody
	e.do("GET", g+"/view", seatToken(c.ID, 0), nil, &v)
	var sm struct {
		summaryBody
		Deadline *string `json:"deadline"`
	}
	if st := e.do("POST", g+"/admin/pause", c.AdminToken, nil, &sm); st != 200 || sm.Status != "paused" || sm.Deadline != nil {
		t.Fatalf("pause: %d %+v", st, sm)
	}
	var eb errBody
	if st := e.do("POST", g+"/moves", seatToken(c.ID, 0), map[string]any{"version": v.Version + 1, "move": v.LegalMoves[0]}, &eb); st != 409 {
		t.Fatalf("move while paused: %d %+v", st, eb)
	}
	if st := e.do("POST", g+"/admin/resume", c.AdminToken, `{}`, &sm); st != 200 || sm.Status != "active" || sm.Deadline == nil {
		t.Fatalf("resume: %d %+v", st, sm)
	}
	before := *sm.Deadline
	if st := e.do("POST", g+"/admin/extend", c.AdminToken, `{"by":"1d"}`, &sm); st != 200 || *sm.Deadline == before {
		t.Fatalf("extend: %d %+v", st, sm)
	}
	for range 2 {
		if st := e.do("POST", g+"/admin/extend", c.AdminToken, `{"by":"1h"}`, nil); st != 200 {
			t.Fatalf("extend: %d", st)
		}
	}
	if st := e.do("POST", g+"/admin/extend", c.AdminToken, `{"by":"1h"}`, &eb); st != 409 {
		t.Fatalf("fourth extension: %d %+v", st, eb)
	}
	// Resending a link revokes the old one.
	if st := e.do("POST", g+"/admin/resend", c.AdminToken, `{"seat":1}`, nil); st != 200 {
		t.Fatalf("resend: %d", st)
	}
	if st := e.do("GET", g+"/view", seatToken(c.ID, 1), nil, nil); st != 401 {
		t.Fatalf("old link after resend: %d", st)
	}
	if st := e.do("GET", g+"/view", tokens.Seat(secret, c.ID, 1, 1), nil, nil); st != 200 {
		t.Fatalf("new link after resend: %d", st)
	}
	if st := e.do("POST", g+"/admin/abort", c.AdminToken, nil, &sm); st != 200 || sm.Status != "aborted" {
		t.Fatalf("abort: %d %+v", st, sm)
	}
	if st := e.do("GET", g+"/audit", "", nil, nil); st != 200 {
		t.Fatalf("audit after abort: %d", st)
	}
	if st := e.do("POST", g+"/admin/abort", c.AdminToken, nil, &eb); st != 409 {
		t.Fatalf("abort twice: %d", st)
	}
}

// TestMalformedBodiesNeverFail500 posts broken and mutated bodies to every
// route that takes one: the answer is always a JSON error below 500.
func TestMalformedBodiesNeverFail500(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.create(testgame.Name, 2, `{}`)
	g := "/api/v1/games/" + c.ID
	var v viewBody
	e.do("GET", g+"/view", seatToken(c.ID, 0), nil, &v)
	seeds := []struct{ path, token, body string }{
		{"/api/v1/games", "", `{"game":"count","organiser":{"name":"O","email":"o@b.example"},"players":[{"name":"Ann","email":"ann@example.org"},{"name":"Bob","email":"bob@example.org"}],"options":{"target":30},"turn_deadline":"72h"}`},
		{g + "/moves", seatToken(c.ID, 0), `{"version":` + jsonInt(v.Version) + `,"move":` + string(v.LegalMoves[0]) + `,"id":"x"}`},
		{g + "/admin/extend", c.AdminToken, `{"by":"24h"}`},
		{g + "/admin/resend", c.AdminToken, `{"seat":0}`},
	}
	fixed := []string{"", " ", "null", "0", "-1", `""`, "[]", "{}", "{", "}", `{"a":}`, "\x00", "\xff\xfe", `{"version":1e400}`,
		`{"version":-9223372036854775809}`, `{"move":null,"version":null}`, `{"version":1,"move":{"kind":"play","card":null}}`,
		`{"version":1,"move":{"kind":"play","card":"c1"}} {}`, strings.Repeat("[", 10000), `{"game":"count","players":null}`,
		`{"game":"count","players":[null]}`, `{"by":"9223372036854775807h"}`, `{"seat":-1}`, `{"seat":1e10}`,
		`{"game":"count","players":[{"name":"` + strings.Repeat("é", 100) + `","email":"a@b.example"}]}`, strings.Repeat("x", 70000)}
	rng := rand.New(rand.NewPCG(42, 42))
	n := 0
	check := func(path, token, body string) {
		t.Helper()
		var raw json.RawMessage
		st := e.do("POST", path, token, body, &raw)
		n++
		if st >= 500 {
			t.Fatalf("POST %s %q: %d %s", path, body, st, raw)
		}
		if st >= 400 {
			var eb errBody
			if json.Unmarshal(raw, &eb) != nil || eb.Error.Code == "" {
				t.Fatalf("POST %s %q: %d, not an error body: %s", path, body, st, raw)
			}
		}
	}
	for _, s := range seeds {
		for _, f := range fixed {
			check(s.path, s.token, f)
		}
		for range 60 {
			check(s.path, s.token, mutate(rng, s.body))
		}
	}
	t.Logf("%d bodies", n)
}

func jsonInt(v int64) string { b, _ := json.Marshal(v); return string(b) }

// mutate changes a few bytes of s: deletes, duplicates, flips, inserts
// JSON punctuation.
func mutate(rng *rand.Rand, s string) string {
	b := []byte(s)
	for range 1 + rng.IntN(4) {
		if len(b) == 0 {
			break
		}
		i := rng.IntN(len(b))
		switch rng.IntN(4) {
		case 0:
			b = append(b[:i], b[i+1:]...)
		case 1:
			const punct = `{}[]":,0-e`
			b = append(b[:i], append([]byte{punct[rng.IntN(len(punct))]}, b[i:]...)...)
		case 2:
			b[i] ^= byte(1 << rng.IntN(8))
		case 3:
			j := i + rng.IntN(len(b)-i)
			b = append(b[:j], append([]byte(string(b[i:j])), b[j:]...)...)
		}
	}
	return string(b)
}
