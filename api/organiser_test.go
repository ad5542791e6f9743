package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"pbem/api"
	"pbem/engine"
	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/play/playtest"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
	"pbem/projections/postgres"
	"pbem/projections/testgame"
)

// limitsEnv is an API behind a proxy it trusts (X-Forwarded-For gives the
// client IP), with small limits.
func limitsEnv(t *testing.T, l api.Limits) *env {
	t.Helper()
	pool := pgtest.NewPool(t)
	store := evpg.New(pool)
	t.Cleanup(store.Close)
	repo := postgres.New(pool)
	now := time.Now().UTC()
	e := &env{t: t, repo: repo, pool: pool, now: &now}
	e.svc = play.New(play.Config{Games: engine.NewRegistry(testgame.Game{}), Store: store, Repo: repo, Accounts: playpg.New(pool), Visits: playpg.New(pool),
		Seeds: playtest.Seeds(t.Name()), Secret: secret, Now: func() time.Time { return *e.now }})
	e.srv = api.New(api.Config{Service: e.svc, Limits: l, TrustProxy: true})
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	e.url = hs.URL
	return e
}

// postFrom posts body to path as client ip, and returns the status, the
// Retry-After header and the body.
func (e *env) postFrom(ip, path string, body any) (int, string, []byte) {
	e.t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		e.t.Fatal(err)
	}
	req, err := http.NewRequest("POST", e.url+path, bytes.NewReader(b))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), data
}

// counts is what the database holds of the organiser flow.
type counts struct{ proposals, games, confirm, invitation, other int }

func (e *env) counts() counts {
	e.t.Helper()
	var c counts
	err := e.pool.QueryRow(context.Background(), `SELECT
		(SELECT count(*) FROM proposals), (SELECT count(*) FROM games),
		(SELECT count(*) FROM outbox WHERE kind = 'confirm'), (SELECT count(*) FROM outbox WHERE kind = 'invitation'),
		(SELECT count(*) FROM outbox WHERE kind NOT IN ('confirm', 'invitation'))`).
		Scan(&c.proposals, &c.games, &c.confirm, &c.invitation, &c.other)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// TestCreateLimitsHoldUnderAbuse sends 1,000 create requests: 500 from one
// IP (each for another organiser) and 500 for one organiser (each from
// another IP). The limits hold: every refused request is a 429 with
// Retry-After and changes nothing; no invitation is queued before a
// confirmation, and confirming every accepted game queues at most the
// invitation budget.
func TestCreateLimitsHoldUnderAbuse(t *testing.T) {
	t.Parallel()
	l := api.Limits{GamesPerHourAddress: 3, GamesPerHourIP: 4, InvitationsPerDayAddress: 8, InvitationsPerDayIP: 100, SigninsPerHour: 5}
	e := limitsEnv(t, l)
	body := func(organiser string) map[string]any {
		return map[string]any{"game": testgame.Name, "organiser": map[string]string{"name": "Org", "email": organiser},
			"players": []map[string]string{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"},
				{"name": "Cid", "email": "cid@example.org"}}}
	}
	var accepted []string
	refused := 0
	send := func(ip, organiser string) {
		st, retry, data := e.postFrom(ip, "/api/v1/games", body(organiser))
		switch st {
		case http.StatusAccepted:
			var p struct{ ID string }
			if err := json.Unmarshal(data, &p); err != nil || p.ID == "" {
				t.Fatalf("202 without an id: %s", data)
			}
			accepted = append(accepted, p.ID)
		case http.StatusTooManyRequests:
			refused++
			if n, err := strconv.Atoi(retry); err != nil || n < 1 {
				t.Fatalf("429 with Retry-After %q", retry)
			}
			var eb errBody
			if json.Unmarshal(data, &eb) != nil || eb.Error.Code != "rate_limited" {
				t.Fatalf("429 body %s", data)
			}
		default:
			t.Fatalf("create: %d %s", st, data)
		}
	}
	for i := range 500 {
		send("203.0.113.7", fmt.Sprintf("org%d@example.org", i))
	}
	fromIP := len(accepted)
	if fromIP != l.GamesPerHourIP {
		t.Errorf("one IP proposed %d games, limit %d", fromIP, l.GamesPerHourIP)
	}
	for i := range 500 {
		send(fmt.Sprintf("198.51.100.%d", i%250+1), "mallory@example.org")
	}
	// One organiser: 3 games an hour, but 8 invitations a day allow only
	// two games of three players.
	if got := len(accepted) - fromIP; got != 2 {
		t.Errorf("one organiser proposed %d games, want 2 (8 invitations a day, 3 per game)", got)
	}
	if refused != 1000-len(accepted) {
		t.Fatalf("%d refused + %d accepted != 1000", refused, len(accepted))
	}
	c := e.counts()
	if c != (counts{proposals: len(accepted), confirm: len(accepted)}) {
		t.Fatalf("before confirmation: %+v, want %d proposals and confirmation emails only", c, len(accepted))
	}
	// The emails really sent so far: one confirmation link per accepted
	// proposal, each to its organiser.
	for _, m := range deliverOutbox(t, e.pool, e.url, len(accepted)) {
		if len(m.To) != 1 || (m.To[0] != "mallory@example.org" && !bytes.Contains([]byte(m.To[0]), []byte("org"))) {
			t.Fatalf("an email to %v before any confirmation", m.To)
		}
	}
	for _, id := range accepted {
		var cf created
		if st := e.do("POST", "/api/v1/confirm/"+tokens.Confirm(secret, id), "", nil, &cf); st != http.StatusCreated || cf.ID != id {
			t.Fatalf("confirm %s: %d %+v", id, st, cf)
		}
	}
	c = e.counts()
	if c.games != len(accepted) || c.invitation != 3*len(accepted) || c.other != len(accepted) {
		t.Fatalf("after confirmation: %+v", c)
	}
	if c.invitation > 3*l.GamesPerHourIP+l.InvitationsPerDayAddress {
		t.Fatalf("%d invitations, over the budgets", c.invitation)
	}
	if got := deliverOutbox(t, e.pool, e.url, c.invitation+c.other); len(got) != 3*len(accepted)+len(accepted) {
		t.Fatalf("%d emails after confirmation", len(got))
	}
	// Confirming again sends the admin link again, within its own limit.
	again := 0
	for range 10 {
		st, retry, _ := e.postFrom("192.0.2.1", "/api/v1/confirm/"+tokens.Confirm(secret, accepted[0]), nil)
		switch {
		case st == http.StatusOK:
			again++
		case st != http.StatusTooManyRequests || retry == "":
			t.Fatalf("confirm again: %d, Retry-After %q", st, retry)
		}
	}
	if again != l.GamesPerHourAddress {
		t.Errorf("the admin link was sent again %d times, want %d", again, l.GamesPerHourAddress)
	}
}

// TestConfirmationLinkExpires checks that a proposal not confirmed in
// time is refused (401) and creates nothing, and that a guessed link is
// refused too.
func TestConfirmationLinkExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := map[string]any{"game": testgame.Name, "organiser": map[string]string{"name": "Org", "email": "org@example.org"},
		"players": []map[string]string{{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}}}
	var p struct{ ID string }
	if st := e.do("POST", "/api/v1/games", "", body, &p); st != http.StatusAccepted {
		t.Fatalf("propose: %d", st)
	}
	if st := e.do("POST", "/api/v1/confirm/"+tokens.Confirm([]byte("another secret"), p.ID), "", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("guessed confirmation: %d", st)
	}
	*e.now = e.now.Add(play.ProposalLifetime + time.Minute)
	if st := e.do("POST", "/api/v1/confirm/"+tokens.Confirm(secret, p.ID), "", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("expired confirmation: %d", st)
	}
	if c := e.counts(); c.games != 0 || c.invitation != 0 {
		t.Fatalf("an expired proposal created %+v", c)
	}
}

// TestOrganiserWhoPlaysReadsTheirLanguage: an organiser who is also a
// player reading French, in a game in English proposed from the English
// lobby, gets the confirmation and the admin link in French, as their
// invitation; an organiser who does not play gets them in the lobby's
// language, then the game's (a user trial found both in English beside a
// French invitation).
func TestOrganiserWhoPlaysReadsTheirLanguage(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	for _, c := range []struct {
		organiser, confirm, admin string
	}{
		{"amelie@example.org", "fr", "fr"}, // plays, reads French
		{"org@example.org", "it", "en"},    // does not play: the lobby's, then the game's
	} {
		p, err := e.svc.Propose(t.Context(), play.CreateGame{Organiser: play.Organiser{Name: "Amélie", Email: c.organiser}, Game: lords.Name,
			Language: "en", MessageLanguage: "it", Players: []play.NewPlayer{{Name: "Amélie", Email: "Amelie@Example.org", Language: "fr"},
				{Name: "Giulia", Email: "giulia@example.org", Language: "it"}}})
		if err != nil {
			t.Fatal(err)
		}
		sent := e.letters()[c.organiser]
		if len(sent) != 1 || !strings.Contains(sent[0], confirmWords[c.confirm]) {
			t.Errorf("organiser %s: the confirmation is not in %s:\n%q", c.organiser, c.confirm, sent)
		}
		if _, err := e.svc.Confirm(t.Context(), tokens.Confirm(secret, p.ID), nil); err != nil {
			t.Fatal(err)
		}
		var admin []string
		for _, m := range e.letters()[c.organiser] {
			if strings.Contains(m, "/admin/"+p.ID) {
				admin = append(admin, m)
			}
		}
		if len(admin) != 1 || !strings.Contains(admin[0], adminWords[c.admin]) {
			t.Errorf("organiser %s: the admin link is not in %s:\n%q", c.organiser, c.admin, admin)
		}
		// The confirmation link followed again sends the admin link again.
		if _, err := e.svc.Confirm(t.Context(), tokens.Confirm(secret, p.ID), nil); err != nil {
			t.Fatal(err)
		}
		if again := e.letters()[c.organiser]; len(again) != 1 || !strings.Contains(again[0], "/admin/"+p.ID) ||
			!strings.Contains(again[0], adminWords[c.admin]) {
			t.Errorf("organiser %s: the admin link sent again is not in %s:\n%q", c.organiser, c.admin, again)
		}
	}
}

// confirmWords and adminWords are words of the confirmation's and the
// admin link's first sentences by language (the catalogs' confirm.intro
// and admin_link.intro).
var (
	confirmWords = map[string]string{"en": "You asked to set up a game of", "fr": "Vous avez demandé à organiser une partie de",
		"it": "Hai chiesto di organizzare una partita di"}
	adminWords = map[string]string{"en": "is set up and the invitations are on their way", "fr": "est prête et les invitations sont parties",
		"it": "è pronta e gli inviti"}
)
