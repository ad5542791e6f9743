package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"testing"

	"pbem/events/play"
	"pbem/notify/smtpsink"
	"pbem/projections/testgame"
)

var playLinkRE = regexp.MustCompile(`/play/([a-z0-9]+)\?token=([A-Za-z0-9_%-]+)`)

// TestEmailedLinkOpensThePlayersView sends the invitations through a real
// SMTP conversation and opens GET /api/v1/games/{id}/view with the token
// of each email.
func TestEmailedLinkOpensThePlayersView(t *testing.T) {
	t.Parallel()
	e := newMailEnv(t, false)
	ctx := context.Background()
	g, err := e.svc.Create(ctx, play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"}, Game: testgame.Name, Language: "it", Options: json.RawMessage(`{"target":25}`),
		Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	got := deliverOutbox(t, e.pool, e.url, 2)
	seats := map[string]int{"ann@example.org": 0, "bob@example.org": 1}
	for _, m := range got {
		p, err := smtpsink.Parse(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		to, err := mail.ParseAddress(p.Header.Get("To"))
		if err != nil {
			t.Fatal(err)
		}
		for _, body := range []string{p.Text, p.HTML} {
			sub := playLinkRE.FindStringSubmatch(body)
			if sub == nil || sub[1] != g.ID {
				t.Fatalf("no play link for %s in:\n%s", g.ID, body)
			}
			tok, _ := url.QueryUnescape(sub[2])
			req, _ := http.NewRequest(http.MethodGet, e.url+"/api/v1/games/"+g.ID+"/view", nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				Seat int `json:"seat"`
			}
			err = json.NewDecoder(resp.Body).Decode(&v)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || err != nil || v.Seat != seats[to.Address] {
				t.Errorf("view with the token mailed to %s: %s, seat %d, %v", to.Address, resp.Status, v.Seat, err)
			}
		}
	}
}
