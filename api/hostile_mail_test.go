package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"pbem/api"
	"pbem/projections/testgame"
)

// The hostile-input suite, mail half (issue 29), over HTTP: addresses
// that would make the relay deliver elsewhere are refused wherever an
// address enters, and subaddresses do not multiply an address's budgets.
// The SMTP attacks are in api/inbound/hostile_test.go.

// routedAddresses are addresses a relay would deliver to itself, its
// network or another host, never to a player.
var routedAddresses = []string{"a@[127.0.0.1]", "a@[IPv6:::1]", "root@localhost", "root@mail.localhost", "a%b@x", "a%b@example.org",
	"a!b@x", "a!b@example.org", "ann@x",
	// Issue #44: not host names by RFC 1035 and RFC 5321.
	"a@-example.org", "a@exa_mple.org", "a@123.45.67.89", "a@" + strings.Repeat("l", 64) + ".org", "a@example.c"}

// TestHostileRoutedAddresses: each address is refused with 400 and a
// message naming the field, in a proposal (players and organiser), an
// admin's correction and replacement, and a sign-in request; nothing is
// written and nothing is queued.
func TestHostileRoutedAddresses(t *testing.T) {
	t.Parallel()
	e := limitsEnv(t, api.Limits{GamesPerHourAddress: 1000, GamesPerHourIP: 1000, InvitationsPerDayAddress: 1000, InvitationsPerDayIP: 1000, SigninsPerHour: 1000})
	g := e.create(testgame.Name, 2, `{}`)
	before := e.counts()
	for _, addr := range routedAddresses {
		var eb errBody
		refused := func(what string, st int, field string) {
			t.Helper()
			if st != http.StatusBadRequest || eb.Error.Code != "invalid" || !strings.HasPrefix(eb.Error.Message, field+": ") {
				t.Errorf("%s %q: %d %+v, want 400 invalid about %s", what, addr, st, eb.Error, field)
			}
			eb = errBody{}
		}
		player := map[string]any{"game": testgame.Name, "organiser": map[string]string{"name": "Org", "email": "org@example.org"},
			"players": []map[string]string{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": addr}}}
		refused("a player", e.do("POST", "/api/v1/games", "", player, &eb), "players[1].email")
		organiser := map[string]any{"game": testgame.Name, "organiser": map[string]string{"name": "Org", "email": addr},
			"players": []map[string]string{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}}}
		refused("an organiser", e.do("POST", "/api/v1/games", "", organiser, &eb), "organiser.email")
		seat := 1
		refused("a corrected address", e.do("POST", "/api/v1/games/"+g.ID+"/admin/email", g.AdminToken, map[string]any{"seat": seat, "email": addr}, &eb), "email")
		refused("a replacing player", e.do("POST", "/api/v1/games/"+g.ID+"/admin/replace", g.AdminToken,
			map[string]any{"seat": seat, "name": "Mallory", "email": addr}, &eb), "email")
		refused("a sign-in request", e.do("POST", "/api/v1/signin", "", map[string]string{"email": addr}, &eb), "email")
	}
	if after := e.counts(); after != before {
		t.Errorf("refused addresses changed the database: %+v, then %+v", before, after)
	}
}

// TestHostileSubaddressBudgets: mallory+1@, mallory+2@… share mallory@'s
// budgets, from however many IPs they come.
func TestHostileSubaddressBudgets(t *testing.T) {
	t.Parallel()
	l := api.Limits{GamesPerHourAddress: 3, GamesPerHourIP: 100, InvitationsPerDayAddress: 100, InvitationsPerDayIP: 100, SigninsPerHour: 5}
	e := limitsEnv(t, l)
	accepted := 0
	for i := range 20 {
		body := map[string]any{"game": testgame.Name, "organiser": map[string]string{"name": "Org", "email": fmt.Sprintf("Mallory+%d@example.org", i)},
			"players": []map[string]string{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}}}
		st, retry, data := e.postFrom(fmt.Sprintf("198.51.100.%d", i+1), "/api/v1/games", body)
		switch st {
		case http.StatusAccepted:
			accepted++
		case http.StatusTooManyRequests:
			if retry == "" {
				t.Fatalf("429 without Retry-After: %s", data)
			}
		default:
			t.Fatalf("proposal %d: %d %s", i, st, data)
		}
	}
	if accepted != l.GamesPerHourAddress {
		t.Errorf("20 subaddresses of one organiser proposed %d games, want %d", accepted, l.GamesPerHourAddress)
	}
	signins := 0
	for i := range 20 {
		st, _, data := e.postFrom(fmt.Sprintf("192.0.2.%d", i+1), "/api/v1/signin", map[string]string{"email": fmt.Sprintf("victim+%d@example.org", i)})
		switch st {
		case http.StatusAccepted:
			signins++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("sign-in %d: %d %s", i, st, data)
		}
	}
	if signins != l.SigninsPerHour {
		t.Errorf("20 subaddresses of one address got %d sign-in requests through, want %d", signins, l.SigninsPerHour)
	}
}
