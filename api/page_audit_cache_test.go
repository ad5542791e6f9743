package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"pbem/api"
	"pbem/events/play"
	"pbem/projections/testgame"
)

// countingService counts the audit record reads and the replays behind the
// audit page.
type countingService struct {
	api.Service
	audits, replays atomic.Int32
}

func (s *countingService) Audit(ctx context.Context, id string) (*play.Audit, error) {
	s.audits.Add(1)
	return s.Service.Audit(ctx, id)
}

func (s *countingService) PublicReplay(ctx context.Context, id string, visit func(play.PublicStep)) error {
	s.replays.Add(1)
	return s.Service.PublicReplay(ctx, id, visit)
}

// TestAuditPageOfAnEndedGameIsCached: the public audit page of a finished
// game reads its record and replays the game once (issue #44: 9.7 ms of
// CPU each request); later requests, in any language, are served from the
// cache and show the same record. A game that has not ended is refused
// each time and caches nothing. Table talk after the end is shown: the
// record is read again for the new version.
func TestAuditPageOfAnEndedGameIsCached(t *testing.T) {
	var svc *countingService
	e := newPageEnvWith(t, func(c *api.PageConfig) {
		svc = &countingService{Service: c.Service}
		c.Service = svc
	})
	id := e.createGame(testgame.Name, 2, "en", `{"target":12}`)
	if p := e.browser().get("/games/" + id + "/audit"); p.Status == http.StatusOK {
		t.Fatalf("the audit of a running game: %d", p.Status)
	}
	bs := []*browser{e.browser(), e.browser()}
	for s, b := range bs {
		b.open(id, s)
	}
	for range 200 {
		seat := e.toMove(id)
		if seat < 0 {
			break
		}
		f := moveForm(t, bs[seat].get("/play/"+id).Body)
		if p := bs[seat].post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}}); p.Status != http.StatusSeeOther {
			t.Fatalf("move: %d", p.Status)
		}
	}
	if e.toMove(id) >= 0 {
		t.Fatal("the game did not end")
	}
	audits, replays := svc.audits.Load(), svc.replays.Load()
	var first string
	for i, path := range []string{"/games/" + id + "/audit", "/games/" + id + "/audit", "/games/" + id + "/audit?lang=fr", "/games/" + id + "/audit"} {
		p := e.browser().get(path)
		if p.Status != http.StatusOK {
			t.Fatalf("audit %d: %d", i, p.Status)
		}
		body := p.Body[strings.Index(p.Body, "<main"):]
		if i == 0 {
			first = body
		} else if path == "/games/"+id+"/audit" && strings.Count(body, "<code class=\"wrap\">") != strings.Count(first, "<code class=\"wrap\">") {
			t.Errorf("request %d lists another record", i)
		}
	}
	if a, r := svc.audits.Load()-audits, svc.replays.Load()-replays; a != 1 || r != 1 {
		t.Errorf("4 audit pages read the record %d times and replayed the game %d times, want once each", a, r)
	}

	// Table talk after the end (a reply to the game-over email) is in the
	// record: the page shows it, built again once.
	if err := e.svc.ChatAs(context.Background(), id, 0, "well played", "after-the-end"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if p := e.browser().get("/games/" + id + "/audit"); p.Status != http.StatusOK || !strings.Contains(p.Body, "well played") {
			t.Fatalf("the audit page after table talk on the ended game: %d, without the message", p.Status)
		}
	}
	if a := svc.audits.Load() - audits; a != 2 {
		t.Errorf("the audit pages read the record %d times, want twice (once more for the table talk)", a)
	}
}
