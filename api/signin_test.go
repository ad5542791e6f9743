package api_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"pbem/events/play"
	"pbem/events/tokens"
	"pbem/projections/testgame"
)

// signinLink is the token of the newest sign-in link of email, as its
// email carries it; "" if none was made.
func (e *env) signinLink(email string) string {
	e.t.Helper()
	var id string
	err := e.pool.QueryRow(context.Background(), `SELECT id FROM signin_links WHERE email = $1 ORDER BY created_at DESC, id LIMIT 1`, email).Scan(&id)
	if err != nil {
		return ""
	}
	return tokens.Signin(secret, id)
}

// raw posts body and returns the status and the body's bytes.
func (e *env) raw(method, path, token string, body any) (int, []byte) {
	e.t.Helper()
	var out []byte
	st := e.do(method, path, token, body, (*rawBody)(&out))
	return st, out
}

// rawBody keeps a response's bytes.
type rawBody []byte

func (r *rawBody) UnmarshalJSON(b []byte) error { *r = append((*r)[:0], b...); return nil }

// TestSigninLinksAndMyGames checks the sign-in flow: a request for an
// unknown address answers exactly like one for a known address (and
// emails nothing); the link works once, expires, and a guessed or reused
// link is refused (401); My games lists the address's games and never
// another's, with whose turn it is and the last move; the session opens
// the seat.
func TestSigninLinksAndMyGames(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	mine := e.create(testgame.Name, 2, `{}`)   // Ann and Bob
	theirs := e.create(testgame.Name, 3, `{}`) // Ann, Bob, Cid
	other := e.createConfirmed(map[string]any{"game": testgame.Name, "organiser": map[string]string{"name": "Zed", "email": "zed@example.org"},
		"players": []map[string]string{{"name": "Zed", "email": "zed@example.org"}, {"name": "Yan", "email": "yan@example.org"}}})

	known, kb := e.raw("POST", "/api/v1/signin", "", map[string]string{"email": "Cid@Example.org", "language": "fr"})
	unknown, ub := e.raw("POST", "/api/v1/signin", "", map[string]string{"email": "nobody@example.org", "language": "fr"})
	if known != http.StatusAccepted || unknown != known || !bytes.Equal(kb, ub) {
		t.Fatalf("known address: %d %s; unknown: %d %s", known, kb, unknown, ub)
	}
	if e.signinLink("nobody@example.org") != "" {
		t.Fatal("a sign-in link was made for an address without games")
	}
	var mails int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM outbox WHERE kind = 'signin'`).Scan(&mails); err != nil || mails != 1 {
		t.Fatalf("%d sign-in emails (%v), want 1 (Cid's)", mails, err)
	}
	if st := e.do("POST", "/api/v1/signin", "", map[string]string{"email": "not an address"}, nil); st != http.StatusBadRequest {
		t.Fatalf("malformed address: %d", st)
	}

	// Guessed, then real, then reused.
	tok := e.signinLink("cid@example.org")
	if st := e.do("POST", "/api/v1/signin/"+tokens.Signin([]byte("guess"), "x"), "", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("guessed link: %d", st)
	}
	var s struct{ Session string }
	if st := e.do("POST", "/api/v1/signin/"+tok, "", nil, &s); st != http.StatusOK || s.Session == "" {
		t.Fatalf("sign in: %d", st)
	}
	if st := e.do("POST", "/api/v1/signin/"+tok, "", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("reused link: %d", st)
	}

	// Cid's games: only the three-player game.
	var mg struct {
		Email string
		Games []struct {
			GameID   string `json:"game_id"`
			Seat     int    `json:"seat"`
			ToMove   []int  `json:"to_move"`
			LastMove string `json:"last_move"`
			Players  []string
		}
	}
	if st := e.do("GET", "/api/v1/me/games", s.Session, nil, &mg); st != http.StatusOK {
		t.Fatalf("my games: %d", st)
	}
	if mg.Email != "cid@example.org" || len(mg.Games) != 1 || mg.Games[0].GameID != theirs.ID || mg.Games[0].Seat != 2 ||
		len(mg.Games[0].Players) != 3 || len(mg.Games[0].ToMove) == 0 || mg.Games[0].LastMove == "" {
		t.Fatalf("Cid's games: %+v", mg)
	}
	// The last move is the last line of the game's history, told from its
	// last event (the game has had no move: its creation).
	var h struct {
		Events []struct {
			Summary string `json:"summary"`
		} `json:"events"`
	}
	if st := e.do("GET", "/api/v1/games/"+theirs.ID+"/history", seatToken(theirs.ID, 2), nil, &h); st != http.StatusOK ||
		len(h.Events) == 0 || mg.Games[0].LastMove != h.Events[len(h.Events)-1].Summary {
		t.Fatalf("Cid's last move %q, history %+v (%d)", mg.Games[0].LastMove, h.Events, st)
	}
	for _, g := range mg.Games {
		if g.GameID == mine.ID || g.GameID == other.ID {
			t.Fatalf("Cid's list shows game %s", g.GameID)
		}
	}
	if st := e.do("GET", "/api/v1/me/games", "", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("my games without a session: %d", st)
	}

	// Expiry: a link used after SigninLifetime is refused.
	if st := e.do("POST", "/api/v1/signin", "", map[string]string{"email": "ann@example.org"}, nil); st != http.StatusAccepted {
		t.Fatalf("ask again: %d", st)
	}
	late := e.signinLink("ann@example.org")
	*e.now = e.now.Add(play.SigninLifetime + time.Second)
	if st := e.do("POST", "/api/v1/signin/"+late, "", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("expired link: %d", st)
	}
	// The session of Cid still works; after its lifetime it does not.
	if st := e.do("GET", "/api/v1/me/games", s.Session, nil, nil); st != http.StatusOK {
		t.Fatalf("session: %d", st)
	}
	*e.now = e.now.Add(play.SessionLifetime)
	if st := e.do("GET", "/api/v1/me/games", s.Session, nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("expired session: %d", st)
	}
}

// TestSigninLimit checks that sign-in requests for one address are
// limited (429 with Retry-After), the same whether it has games or not.
func TestSigninLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(testgame.Name, 2, `{}`)
	for _, addr := range []string{"ann@example.org", "nobody@example.org"} {
		for i := range 6 {
			req, _ := http.NewRequest("POST", e.url+"/api/v1/signin", bytes.NewBufferString(`{"email":"`+addr+`"}`))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			want := http.StatusAccepted
			if i >= 5 || addr == "nobody@example.org" {
				// the IP's budget is shared: five for Ann used it up
				want = http.StatusTooManyRequests
			}
			if resp.StatusCode != want || (want == http.StatusTooManyRequests && resp.Header.Get("Retry-After") == "") {
				t.Fatalf("%s request %d: %d (Retry-After %q), want %d", addr, i, resp.StatusCode, resp.Header.Get("Retry-After"), want)
			}
		}
	}
}
