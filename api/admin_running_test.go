package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"pbem/events/pbemevent"
	"strings"
	"testing"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

// TestCorrectEmailAndReplacePlayer checks the organiser's corrections:
// the old token stops working at once (401), the new one opens the seat,
// the events record the change (without the address), the seat's emails
// go to the new address, and verify passes; then a rematch of the same
// players starts with a new seed, and a pause's reason reaches the
// players' history.
func TestCorrectEmailAndReplacePlayer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.create(testgame.Name, 3, `{"target":30}`)
	g := "/api/v1/games/" + c.ID
	ctx := context.Background()
	opens := func(tok string) int { return e.do("GET", g+"/view", tok, nil, nil) }

	// Whom the game waits for.
	var w struct{ Waiting []play.Waiting }
	if st := e.do("GET", g+"/admin/waiting", c.AdminToken, nil, &w); st != http.StatusOK || len(w.Waiting) == 0 || w.Waiting[0].Since.IsZero() {
		t.Fatalf("waiting: %d %+v", st, w)
	}
	if st := e.do("GET", g+"/admin/waiting", seatToken(c.ID, 0), nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("waiting with a seat's token: %d", st)
	}

	// Correct Bob's address.
	if st := e.do("POST", g+"/admin/email", c.AdminToken, map[string]any{"seat": 1, "email": "robert@example.org"}, nil); st != http.StatusOK {
		t.Fatalf("correct email: %d", st)
	}
	if st := opens(seatToken(c.ID, 1)); st != http.StatusUnauthorized {
		t.Fatalf("Bob's old link after the correction: %d", st)
	}
	if st := opens(tokens.Seat(secret, c.ID, 1, 1)); st != http.StatusOK {
		t.Fatalf("Bob's new link: %d", st)
	}
	// Replace Cid by Dee.
	if st := e.do("POST", g+"/admin/replace", c.AdminToken, map[string]any{"seat": 2, "name": "Dee", "email": "dee@example.org"}, nil); st != http.StatusOK {
		t.Fatalf("replace: %d", st)
	}
	if st := opens(seatToken(c.ID, 2)); st != http.StatusUnauthorized {
		t.Fatalf("Cid's link after the replacement: %d", st)
	}
	if st := opens(tokens.Seat(secret, c.ID, 2, 1)); st != http.StatusOK {
		t.Fatalf("Dee's link: %d", st)
	}
	// Bad corrections change nothing.
	for _, b := range []map[string]any{
		{"seat": 9, "email": "x@example.org"}, {"seat": 0, "email": "nope"}, {"seat": 0},
	} {
		if st := e.do("POST", g+"/admin/email", c.AdminToken, b, nil); st != http.StatusBadRequest && st != http.StatusNotFound {
			t.Fatalf("bad correction %v: %d", b, st)
		}
	}
	if st := e.do("POST", g+"/admin/replace", c.AdminToken, map[string]any{"seat": 0, "name": "Bob", "email": "b2@example.org"}, nil); st != http.StatusBadRequest {
		t.Fatalf("replacement under a taken name: %d", st)
	}
	if st := e.do("POST", g+"/admin/email", seatToken(c.ID, 0), map[string]any{"seat": 1, "email": "x@example.org"}, nil); st != http.StatusUnauthorized {
		t.Fatalf("correction with a seat's token: %d", st)
	}

	// The events record both, without addresses; the seats and the
	// emails follow.
	var types []string
	var data []string
	rows, err := e.pool.Query(ctx, `SELECT type, data::text FROM events WHERE stream = $1 ORDER BY version`, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var ty, d string
		if err := rows.Scan(&ty, &d); err != nil {
			t.Fatal(err)
		}
		types, data = append(types, ty), append(data, d)
	}
	rows.Close()
	n := len(types)
	if n < 3 || types[n-2] != pbemevent.TypeEmailChanged || types[n-1] != pbemevent.TypePlayerReplaced {
		t.Fatalf("events %v", types)
	}
	var rp pbemevent.PlayerReplaced
	if err := json.Unmarshal([]byte(data[n-1]), &rp); err != nil || rp != (pbemevent.PlayerReplaced{Seat: 2, Name: "Dee", Previous: "Cid", TokenGen: 1}) {
		t.Fatalf("pbem.player_replaced %s", data[n-1])
	}
	for _, d := range data {
		if json.Valid([]byte(d)) && (strings.Contains(d, "robert@") || strings.Contains(d, "dee@")) {
			t.Fatalf("an event holds an address: %s", d)
		}
	}
	var sm play.Summary
	e.do("GET", g, "", nil, &sm)
	if sm.Seats[2].Name != "Dee" {
		t.Fatalf("seats %+v", sm.Seats)
	}
	var to []string
	rows, err = e.pool.Query(ctx, `SELECT kind || ' ' || (payload->'to'->>'email') FROM outbox WHERE game_id = $1 AND kind IN ('invitation', 'link') ORDER BY id DESC LIMIT 2`, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		_ = rows.Scan(&s)
		to = append(to, s)
	}
	rows.Close()
	if len(to) != 2 || to[0] != "invitation dee@example.org" || to[1] != "link robert@example.org" {
		t.Fatalf("the last emails: %v", to)
	}
	if err := e.svc.Verify(ctx, c.ID); err != nil {
		t.Fatalf("verify: %v", err)
	}

	// A pause with a reason: the players' history says it.
	if st := e.do("POST", g+"/admin/pause", c.AdminToken, map[string]string{"reason": "Dee is on holiday"}, nil); st != http.StatusOK {
		t.Fatalf("pause: %d", st)
	}
	if r, err := e.svc.PauseReason(ctx, c.ID); err != nil || r != "Dee is on holiday" {
		t.Fatalf("pause reason %q, %v", r, err)
	}
	if err := e.svc.Verify(ctx, c.ID); err != nil {
		t.Fatalf("verify after pause: %v", err)
	}

	// A rematch waits for the end of the game (409 while it is paused);
	// then the same players (Dee now) and options, a new seed.
	if st := e.do("POST", g+"/admin/rematch", c.AdminToken, nil, nil); st != http.StatusConflict {
		t.Fatalf("rematch of a paused game: %d", st)
	}
	if st := e.do("POST", g+"/admin/abort", c.AdminToken, nil, nil); st != http.StatusOK {
		t.Fatalf("abort: %d", st)
	}
	var rm created
	if st := e.do("POST", g+"/admin/rematch", c.AdminToken, nil, &rm); st != http.StatusCreated || rm.ID == "" || rm.ID == c.ID {
		t.Fatalf("rematch: %d %+v", st, rm)
	}
	var old, fresh play.Summary
	e.do("GET", g, "", nil, &old)
	e.do("GET", "/api/v1/games/"+rm.ID, "", nil, &fresh)
	if len(fresh.Seats) != 3 || fresh.Seats[2].Name != "Dee" || fresh.SeedHash == old.SeedHash {
		t.Fatalf("rematch %+v of %+v", fresh, old)
	}
	var invites int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE game_id = $1 AND kind = 'invitation'`, rm.ID).Scan(&invites); err != nil || invites != 3 {
		t.Fatalf("%d invitations for the rematch", invites)
	}
	if err := e.svc.Verify(ctx, rm.ID); err != nil {
		t.Fatalf("verify rematch: %v", err)
	}
	if err := e.svc.Verify(ctx, c.ID); err != nil {
		t.Fatalf("verify after rematch: %v", err)
	}
}
