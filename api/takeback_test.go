package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"pbem/engine/lords"
)

// reversibleTurn plays the first listed moves of game id over HTTP until
// the seat to move has a move that can be taken back (the play page's
// offer says which); it returns that seat and the move.
func (e *env) reversibleTurn(id string) (int, json.RawMessage) {
	e.t.Helper()
	for range 300 {
		var sm summaryBody
		if st := e.do("GET", "/api/v1/games/"+id, "", nil, &sm); st != http.StatusOK || sm.Status != "active" {
			e.t.Fatalf("summary: %d %+v", st, sm)
		}
		seat := sm.ToMove[0]
		sp, err := e.svc.SeatPage(context.Background(), id, seatToken(id, seat))
		if err != nil {
			e.t.Fatal(err)
		}
		var v viewBody
		if st := e.do("GET", "/api/v1/games/"+id+"/view", seatToken(id, seat), nil, &v); st != http.StatusOK {
			e.t.Fatalf("view: %d", st)
		}
		for i, final := range sp.Takeback.Final {
			if !final {
				return seat, v.LegalMoves[i]
			}
		}
		body := map[string]any{"version": v.Version, "move": v.LegalMoves[0]}
		if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, seat), body, nil); st != http.StatusOK {
			e.t.Fatalf("move: %d", st)
		}
	}
	e.t.Fatal("no reversible move in 300 moves")
	return 0, nil
}

// TestTakebackOverHTTP: POST /api/v1/games/{id}/takeback answers 200 with
// the seat's view as before its move, 403 to another seat, 401 without a
// good token, 400 for a malformed body, and 409 with a clear message when
// the move can no longer be taken back.
func TestTakebackOverHTTP(t *testing.T) {
	t.Parallel()
	g, err := lords.New()
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, g)
	c := e.create(lords.Name, 2, `{}`)
	id := c.ID
	path := "/api/v1/games/" + id + "/takeback"

	// The first move of a Lords game is a recruit: it refills its place.
	var v viewBody
	var sm summaryBody
	e.do("GET", "/api/v1/games/"+id, "", nil, &sm)
	first := sm.ToMove[0]
	e.do("GET", "/api/v1/games/"+id+"/view", seatToken(id, first), nil, &v)
	var recruit json.RawMessage
	for _, m := range v.LegalMoves {
		if strings.Contains(string(m), `"recruit"`) {
			recruit = m
			break
		}
	}
	var moved viewBody
	if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, first), map[string]any{"version": v.Version, "move": recruit}, &moved); st != http.StatusOK {
		t.Fatalf("recruit: %d", st)
	}
	var eb errBody
	if st := e.do("POST", path, seatToken(id, first), map[string]any{"version": moved.Version}, &eb); st != http.StatusConflict ||
		!strings.Contains(eb.Error.Message, "revealed something") {
		t.Fatalf("take-back of a recruit: %d %+v", st, eb)
	}

	seat, mv := e.reversibleTurn(id)
	e.do("GET", "/api/v1/games/"+id+"/view", seatToken(id, seat), nil, &v)
	before := v
	if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, seat), map[string]any{"version": v.Version, "move": mv}, &moved); st != http.StatusOK {
		t.Fatalf("move: %d", st)
	}
	other := 1 - seat
	for _, tc := range []struct {
		name, token string
		body        any
		status      int
		code        string
	}{
		{"another seat", seatToken(id, other), map[string]any{"version": moved.Version}, http.StatusForbidden, "forbidden"},
		{"no token", "", map[string]any{"version": moved.Version}, http.StatusUnauthorized, "unauthorized"},
		{"a bad token", "nope", map[string]any{"version": moved.Version}, http.StatusUnauthorized, "unauthorized"},
		{"no version", seatToken(id, seat), `{}`, http.StatusBadRequest, "invalid"},
		{"a text version", seatToken(id, seat), `{"version":"3"}`, http.StatusBadRequest, "invalid"},
		{"an unknown field", seatToken(id, seat), `{"version":3,"move":{}}`, http.StatusBadRequest, "invalid"},
		{"not JSON", seatToken(id, seat), `version=3`, http.StatusBadRequest, "invalid"},
		{"an earlier version", seatToken(id, seat), map[string]any{"version": before.Version}, http.StatusConflict, "conflict"},
	} {
		var eb errBody
		if st := e.do("POST", path, tc.token, tc.body, &eb); st != tc.status || eb.Error.Code != tc.code || eb.Error.Message == "" {
			t.Errorf("%s: %d %+v, want %d %s", tc.name, st, eb, tc.status, tc.code)
		}
	}
	var back viewBody
	if st := e.do("POST", path, seatToken(id, seat), map[string]any{"version": moved.Version}, &back); st != http.StatusOK {
		t.Fatalf("take-back: %d", st)
	}
	if back.Version != moved.Version+1 || string(back.State) != string(before.State) || len(back.LegalMoves) != len(before.LegalMoves) {
		t.Fatalf("after the take-back: version %d, state %s\nbefore the move: version %d, state %s", back.Version, back.State, before.Version, before.State)
	}

	// Played again, then the other seat acts: too late.
	if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, seat), map[string]any{"version": back.Version, "move": mv}, &moved); st != http.StatusOK {
		t.Fatalf("move again: %d", st)
	}
	if moved.ToMove[0] == seat {
		t.Skip("the move kept the turn; nobody else can act")
	}
	var ov viewBody
	e.do("GET", "/api/v1/games/"+id+"/view", seatToken(id, other), nil, &ov)
	if st := e.do("POST", "/api/v1/games/"+id+"/moves", seatToken(id, other), map[string]any{"version": ov.Version, "move": ov.LegalMoves[0]}, nil); st != http.StatusOK {
		t.Fatalf("the other seat's move: %d", st)
	}
	if st := e.do("POST", path, seatToken(id, seat), map[string]any{"version": moved.Version}, &eb); st != http.StatusConflict ||
		!strings.Contains(eb.Error.Message, "no longer be taken back") {
		t.Fatalf("take-back after the other seat moved: %d %+v", st, eb)
	}
}
