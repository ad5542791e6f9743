package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"pbem/api"
	"pbem/engine/lords"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/projections/outbox"
)

// TestPageAsksTheSeatsTimeZone: in each language, the play page says
// which zone it tells times in and asks whether it is right (open until
// answered on this browser or told by the device's script: then one
// closed line); the answer, a city in the player's words,
// becomes the page's zone and the seat's emails' zone, and the question
// folds; an unknown zone or a forged form changes nothing; "use this
// device's time zone" goes back to the zone the script reports.
func TestPageAsksTheSeatsTimeZone(t *testing.T) {
	t.Parallel()
	zones := &seatsOf{}
	e := newPageEnvWith(t, func(pc *api.PageConfig) { pc.Zones = zones })
	zones.s = notifypg.NewSeats(e.pool, notifypg.Histories{})
	for _, c := range []struct{ lang, ask, city, zone, saved, bad string }{
		{"en", "If you are elsewhere, write your city or time zone.", "new york", "America/New_York", "Deadlines are now told in America/New_York time", "not a time zone we know"},
		{"fr", "Si vous êtes ailleurs, écrivez votre ville", "Londres", "Europe/London", "Les dates limites sont maintenant données à l&#39;heure d&#39;Europe/London", "Nous ne connaissons pas ce fuseau horaire"},
		{"it", "Se ti trovi altrove, scrivi la tua città", "Roma", "Europe/Rome", "Ora le scadenze sono indicate secondo il fuso Europe/Rome", "Non conosciamo questo fuso orario"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			id := e.createGame(lords.Name, 2, c.lang, "")
			zone := func() string {
				t.Helper()
				sts, err := zones.s.Stories(context.Background(), []notify.StoryRequest{{GameID: id, Seat: 0, Kind: outbox.Invitation}})
				if err != nil {
					t.Fatal(err)
				}
				return sts[0].Zone
			}
			cookie := func(b *browser, name string) string {
				u, _ := url.Parse(e.url + "/play/" + id)
				for _, ck := range b.jar.Cookies(u) {
					if ck.Name == name {
						return ck.Value
					}
				}
				return ""
			}
			b := e.browser()
			p := b.open(id, 0)
			if !strings.Contains(p.Body, `<details class="zone" id="zone" open>`) || !strings.Contains(p.Body, c.ask) ||
				!strings.Contains(p.Body, `id="zone-input" name="zone" list="zone-list" value="UTC"`) {
				t.Fatalf("the first page does not ask the time zone (UTC, %q):\n%s", c.ask, p.Body)
			}
			csrf := moveForm(t, p.Body).csrf
			// The seat's zone before (another game of the same address may
			// have told one: notify/postgres reads it then).
			before := zone()

			// Refused: a forged form, an unknown zone.
			if r := b.post("/play/"+id+"/zone", url.Values{"csrf": {"forged"}, "zone": {c.city}}); r.Status != http.StatusForbidden {
				t.Errorf("forged zone form: %d", r.Status)
			}
			r := b.post("/play/"+id+"/zone", url.Values{"csrf": {csrf}, "zone": {"Mars/Olympus"}})
			if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/play/"+id+"?n=zonebad" {
				t.Fatalf("unknown zone: %d to %q", r.Status, r.Header.Get("Location"))
			}
			if p := b.get(r.Header.Get("Location")); !strings.Contains(p.Body, c.bad) || !strings.Contains(p.Body, `id="zone" open>`) {
				t.Errorf("the page after an unknown zone does not say so (%q) or no longer asks", c.bad)
			}
			if z, ck := zone(), cookie(b, "pbem_tz"); z != before || ck != "" {
				t.Fatalf("an unknown zone was kept: seat %q, cookie %q", z, ck)
			}

			// A city in the player's words.
			r = b.post("/play/"+id+"/zone", url.Values{"csrf": {csrf}, "zone": {c.city}})
			if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/play/"+id+"?n=zone" {
				t.Fatalf("zone %q: %d to %q", c.city, r.Status, r.Header.Get("Location"))
			}
			if z, ck, set := zone(), cookie(b, "pbem_tz"), cookie(b, "pbem_tz_set"); z != c.zone || ck != c.zone || set != "1" {
				t.Fatalf("after %q: seat zone %q, cookie %q, set %q; want %s", c.city, z, ck, set, c.zone)
			}
			p = b.get(r.Header.Get("Location"))
			if !strings.Contains(p.Body, c.saved) || !strings.Contains(p.Body, `<details class="zone" id="zone">`) ||
				!strings.Contains(p.Body, `data-tz="`+c.zone+`"`) {
				t.Errorf("the page after %q does not say %q, or still asks, or is not told in %s:\n%s", c.city, c.saved, c.zone, p.Body)
			}

			// Back to the device's zone (the script sends it).
			r = b.post("/play/"+id+"/zone", url.Values{"csrf": {csrf}, "follow": {"1"}, "device": {"Asia/Tokyo"}, "zone": {c.city}})
			if r.Status != http.StatusSeeOther {
				t.Fatalf("follow the device: %d", r.Status)
			}
			if z, ck, set := zone(), cookie(b, "pbem_tz"), cookie(b, "pbem_tz_set"); z != "Asia/Tokyo" || ck != "Asia/Tokyo" || set != "" {
				t.Fatalf("after following the device: seat zone %q, cookie %q, set %q", z, ck, set)
			}
			// The device's zone is known again: the question is one
			// closed line naming it (issue #43), no longer open.
			if p := b.get("/play/" + id); !strings.Contains(p.Body, `<details class="zone" id="zone"><summary>`) || !strings.Contains(p.Body, "Asia/Tokyo") {
				t.Error("after following the device, the page does not tell the device's zone in one closed line")
			}
		})
	}
}
