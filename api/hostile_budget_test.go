package api_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"pbem/api"
	"pbem/projections/testgame"
)

// signinLinks counts the sign-in links the database holds for email.
func (e *env) signinLinks(email string) int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(context.Background(), `SELECT count(*) FROM signin_links WHERE email = $1`, email).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// signinFromSource asks a sign-in link for email over a real socket whose
// source address is src (any 127.x.y.z is on lo), and returns the status.
func signinFromSource(t *testing.T, url, src, email string) int {
	t.Helper()
	tr := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}}).DialContext}
	defer tr.CloseIdleConnections()
	req, err := http.NewRequest(http.MethodPost, url+"/api/v1/signin", strings.NewReader(`{"email":"`+email+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// TestHostileSigninBudgetsByNetwork: the attack, sign-in emails
// to one person from 20 addresses. From 20 addresses of one IPv4 /24 (real
// sockets, each from its own source address) and from 20 addresses of one
// IPv6 /64 (behind a proxy), the person gets no more links than one
// address could send them.
func TestHostileSigninBudgetsByNetwork(t *testing.T) {
	t.Parallel()
	e := limitsEnv(t, api.Limits{})
	e.create(testgame.Name, 2, `{"target":25}`) // Ann@example.org and Bob@example.org play

	// Real sockets, no proxy: the peer's address counts.
	hs := httptest.NewServer(api.New(api.Config{Service: e.svc}))
	defer hs.Close()
	for i := range 20 {
		st := signinFromSource(t, hs.URL, fmt.Sprintf("127.0.0.%d", i+2), "ann@example.org")
		if st != http.StatusAccepted && st != http.StatusTooManyRequests {
			t.Fatalf("sign-in request %d: %d", i, st)
		}
	}
	if got := e.signinLinks("ann@example.org"); got != api.DefaultSigninsPerHour {
		t.Errorf("20 addresses of one /24 sent %d sign-in links to one person, one address can send %d", got, api.DefaultSigninsPerHour)
	}

	for i := range 20 {
		st, _, data := e.postFrom(fmt.Sprintf("2001:db8:1:2::%x", i+1), "/api/v1/signin", map[string]string{"email": "bob@example.org"})
		if st != http.StatusAccepted && st != http.StatusTooManyRequests {
			t.Fatalf("sign-in request %d: %d %s", i, st, data)
		}
	}
	if got := e.signinLinks("bob@example.org"); got != api.DefaultSigninsPerHour {
		t.Errorf("20 addresses of one /64 sent %d sign-in links to one person, one address can send %d", got, api.DefaultSigninsPerHour)
	}
}

// TestHostileRecipientBudget: from as many networks as they like,
// strangers cannot send one person more than MailsPerHourRecipient
// emails an hour, and the person's own network still gets a link while
// the budget lasts.
func TestHostileRecipientBudget(t *testing.T) {
	t.Parallel()
	e := limitsEnv(t, api.Limits{MailsPerHourRecipient: 8})
	e.create(testgame.Name, 2, `{"target":25}`) // one email to Ann: her invitation
	for i := range 30 {
		st, _, data := e.postFrom(fmt.Sprintf("198.51.%d.7", i), "/api/v1/signin", map[string]string{"email": "ann@example.org"})
		if st != http.StatusAccepted && st != http.StatusTooManyRequests {
			t.Fatalf("sign-in request %d: %d %s", i, st, data)
		}
	}
	if got := e.signinLinks("ann@example.org"); got != 8-1 {
		t.Errorf("30 networks sent %d sign-in links to one person, want %d (8 emails an hour, the invitation one of them)", got, 8-1)
	}
}

// TestHostileReplaceNoticeIsCharged: replacing a player emails two people
// (the newcomer's invitation and "You no longer play" to the player
// replaced), and both are charged: an organiser allowed three invitations
// a day replaces once, not twice.
func TestHostileReplaceNoticeIsCharged(t *testing.T) {
	t.Parallel()
	e := limitsEnv(t, api.Limits{InvitationsPerDayAddress: 3 + 2}) // the game's two invitations, then three
	g := e.create(testgame.Name, 2, `{"target":25}`)
	var eb errBody
	if st := e.do("POST", "/api/v1/games/"+g.ID+"/admin/replace", g.AdminToken,
		map[string]any{"seat": 1, "name": "Mallory", "email": "mallory@example.org"}, &eb); st != http.StatusOK {
		t.Fatalf("first replacement: %d %+v", st, eb)
	}
	if st := e.do("POST", "/api/v1/games/"+g.ID+"/admin/replace", g.AdminToken,
		map[string]any{"seat": 1, "name": "Trent", "email": "trent@example.org"}, &eb); st != http.StatusTooManyRequests {
		t.Fatalf("second replacement, four emails into a budget of three: %d %+v, want 429", st, eb)
	}
	// The replace notice counts against the person replaced too: Bob,
	// allowed two emails an hour, gets his invitation and the notice that
	// Mallory took his seat; the seat cannot come back to him this hour.
	e2 := limitsEnv(t, api.Limits{MailsPerHourRecipient: 2})
	g2 := e2.create(testgame.Name, 2, `{"target":25}`)
	for _, name := range []string{"Mallory", "Trent"} {
		if st := e2.do("POST", "/api/v1/games/"+g2.ID+"/admin/replace", g2.AdminToken,
			map[string]any{"seat": 1, "name": name, "email": strings.ToLower(name) + "@example.org"}, &eb); st != http.StatusOK {
			t.Fatalf("%s takes seat 1: %d %+v", name, st, eb)
		}
	}
	if st := e2.do("POST", "/api/v1/games/"+g2.ID+"/admin/replace", g2.AdminToken,
		map[string]any{"seat": 1, "name": "Bob", "email": "bob@example.org"}, &eb); st != http.StatusTooManyRequests {
		t.Fatalf("Bob's third email in the hour (invitation, notice, invitation): %d %+v, want 429", st, eb)
	}
}
