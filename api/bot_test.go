package api_test

import (
	"net/http"
	"strings"
	"testing"

	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/tokens"
)

// botSummary is the part of a summary that shows who is a bot.
type botSummary struct {
	Version int64 `json:"version"`
	Seats   []struct {
		Seat int    `json:"seat"`
		Name string `json:"name"`
		Bot  string `json:"bot"`
	} `json:"seats"`
}

func TestBotSeatsThroughTheAPI(t *testing.T) {
	t.Parallel()
	l, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, []engine.Game{l}...)
	ann := `{"name":"Ann","email":"ann@example.org"}`
	for _, tc := range []struct{ name, players, field string }{
		{"bad level", ann + `,{"bot":"hard"}`, "players[1].bot"},
		{"bot with an email", ann + `,{"bot":"easy","email":"r@example.org"}`, "players[1].email"},
		{"bots only", `{"bot":"easy"},{"bot":"normal"}`, "players"},
		{"bad policy", "", "timeout_policy"},
	} {
		var eb errBody
		body := `{"game":"lords-of-scotland","organiser":` + ann + `,"players":[` + tc.players + `]}`
		if tc.name == "bad policy" {
			body = `{"game":"lords-of-scotland","organiser":` + ann + `,"players":[` + ann + `,{"bot":"easy"}],"timeout_policy":"robot"}`
		}
		if st := e.do("POST", "/api/v1/games", "", body, &eb); st != http.StatusBadRequest || !strings.HasPrefix(eb.Error.Message, tc.field) {
			t.Fatalf("%s: %d %+v", tc.name, st, eb)
		}
	}
	var c struct {
		ID         string `json:"id"`
		AdminToken string `json:"admin_token"`
		botSummary
	}
	body := `{"game":"lords-of-scotland","timeout_policy":"bot","organiser":` + ann + `,"players":[` + ann +
		`,{"bot":" Normal "},{"name":"Bob","email":"bob@example.org"}]}`
	var proposed struct{ ID string }
	if st := e.do("POST", "/api/v1/games", "", body, &proposed); st != http.StatusAccepted {
		t.Fatalf("propose: %d", st)
	}
	if st := e.do("POST", "/api/v1/confirm/"+tokens.Confirm(secret, proposed.ID), "", nil, &c); st != http.StatusCreated {
		t.Fatalf("confirm: %d", st)
	}
	if c.Seats[1].Bot != "normal" || c.Seats[1].Name != "Robot 1" || c.Seats[0].Bot != "" {
		t.Fatalf("created seats = %+v", c.Seats)
	}
	g := "/api/v1/games/" + c.ID
	var sm botSummary
	if st := e.do("GET", g, "", nil, &sm); st != 200 || sm.Seats[1].Bot != "normal" || sm.Seats[2].Bot != "" {
		t.Fatalf("summary: %d %+v", st, sm)
	}
	for _, tc := range []struct {
		name, token, body string
		status            int
		code              string
	}{
		{"no token", "", `{"seat":2,"bot":"easy"}`, 401, "unauthorized"},
		{"bad level", c.AdminToken, `{"seat":2,"bot":"hard"}`, 400, "invalid"},
		{"no level", c.AdminToken, `{"seat":2}`, 400, "invalid"},
		{"no seat", c.AdminToken, `{"bot":"easy"}`, 400, "invalid"},
		{"unknown field", c.AdminToken, `{"seat":2,"bot":"easy","x":1}`, 400, "invalid"},
		{"bad seat", c.AdminToken, `{"seat":9,"bot":"easy"}`, 404, "not_found"},
		{"a bot from the start", c.AdminToken, `{"seat":1,"bot":""}`, 409, "conflict"},
		{"already a person", c.AdminToken, `{"seat":2,"bot":""}`, 409, "conflict"},
	} {
		var eb errBody
		if st := e.do("POST", g+"/admin/seat", tc.token, tc.body, &eb); st != tc.status || eb.Error.Code != tc.code {
			t.Fatalf("%s: %d %+v", tc.name, st, eb)
		}
	}
	if st := e.do("GET", g, "", nil, &sm); st != 200 || sm.Version != 1 {
		t.Fatalf("refused requests changed the game: %+v", sm)
	}
	if st := e.do("POST", g+"/admin/seat", c.AdminToken, `{"seat":2,"bot":"easy"}`, &sm); st != 200 || sm.Seats[2].Bot != "easy" {
		t.Fatalf("hand to a bot: %d %+v", st, sm)
	}
	var back botSummary
	if st := e.do("POST", g+"/admin/seat", c.AdminToken, `{"seat":2,"bot":""}`, &back); st != 200 || back.Seats[2].Bot != "" {
		t.Fatalf("hand back: %d %+v", st, back)
	}
	var h struct {
		Events []struct {
			Type    string `json:"type"`
			Summary string `json:"summary"`
		} `json:"events"`
	}
	if st := e.do("GET", g+"/history", seatToken(c.ID, 0), nil, &h); st != 200 {
		t.Fatalf("history: %d", st)
	}
	var lines []string
	for _, ev := range h.Events {
		if ev.Type == "pbem.seat_bot" {
			lines = append(lines, ev.Summary)
		}
	}
	if len(lines) != 2 || lines[0] != "Bob is now played by a bot (easy)." || lines[1] != "Bob plays again." {
		t.Fatalf("history lines = %q", lines)
	}
}
