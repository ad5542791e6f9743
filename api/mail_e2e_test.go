package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"testing"
	"time"

	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/notify/smtpsink"
	"pbem/projections"
	"pbem/projections/testgame"
)

var playLinkRE = regexp.MustCompile(`/play/([a-z0-9]+)\?token=([A-Za-z0-9_%-]+)`)

// TestEmailedLinkOpensThePlayersView sends the invitations through a real
// SMTP conversation and opens GET /api/v1/games/{id}/view with the token
// of each email.
func TestEmailedLinkOpensThePlayersView(t *testing.T) {
	e := newMailEnv(t, false)
	ctx := context.Background()
	g, err := e.svc.Create(ctx, projections.CreateGame{Game: testgame.Name, Language: "it", Options: json.RawMessage(`{"target":25}`),
		Players: []projections.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	sink := smtpsink.Start(t, smtpsink.Options{})
	cfg, err := notify.ParseSMTPURL("smtp://" + sink.Addr() + "?tls=none")
	if err != nil {
		t.Fatal(err)
	}
	sender, err := notify.NewSMTPSender(cfg, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: e.url})
	if err != nil {
		t.Fatal(err)
	}
	w, err := notify.NewWorker(notify.WorkerConfig{Store: notifypg.NewOutbox(e.pool), Sender: sender, Renderer: r,
		Now: func() time.Time { return time.Now().Add(time.Second) }})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.RunOnce(ctx); n != 2 || err != nil {
		t.Fatalf("RunOnce = %d, %v", n, err)
	}
	got := sink.Wait(2, 5*time.Second)
	if len(got) != 2 {
		t.Fatalf("%d emails", len(got))
	}
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
