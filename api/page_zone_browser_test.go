package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"pbem/api"
	"pbem/engine/lords"
	"pbem/events/tokens"
	"pbem/notify"
	notifypg "pbem/notify/postgres"
	"pbem/projections/outbox"
)

// seatsOf is the page config's ZoneRecorder, on a pool known only once
// the page environment exists.
type seatsOf struct{ s *notifypg.Seats }

func (z *seatsOf) SetZone(ctx context.Context, gameID string, seat int, zone string) error {
	return z.s.SetZone(ctx, gameID, seat, zone)
}

// TestBrowserPlayPageTeachesTheSeatsTimeZone: a player opens the play page
// in a browser set to Tokyo time; the seat's emails then tell deadlines in
// Asia/Tokyo, and the page asks whether that zone is right. The player
// answers Paris: the page and the emails say Europe/Paris, also after a
// reload in Tokyo; "use this device's time zone" brings Tokyo back. A
// forged zone cookie changes nothing, and the other seat, which has not
// opened its page, stays in UTC.
func TestBrowserPlayPageTeachesTheSeatsTimeZone(t *testing.T) {
	root := startBrowser(t)
	zones := &seatsOf{}
	e := newPageEnvWith(t, func(pc *api.PageConfig) { pc.Zones = zones })
	zones.s = notifypg.NewSeats(e.pool, notifypg.Histories{})
	id := e.createGame(lords.Name, 2, "en", "")
	zone := func(seat int) string {
		t.Helper()
		sts, err := zones.s.Stories(context.Background(), []notify.StoryRequest{{GameID: id, Seat: seat, Kind: outbox.Invitation}})
		if err != nil {
			t.Fatal(err)
		}
		return sts[0].Zone
	}
	tb := tab(t, root, 360, 740, true)
	within(t, tb, 20*time.Second, "play page in Tokyo",
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"})
			return err
		}),
		chromedp.Navigate(e.url+"/play/"+id+"?token="+tokens.Seat(secret, id, 0, 0)),
		chromedp.WaitVisible(chromedp.CSS("#game")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`document.body.dataset.tz === "Asia/Tokyo"`, chromedp.WithPollingTimeout(10*time.Second))(ctx, tg)
			return err
		}),
	)
	deadline := time.Now().Add(10 * time.Second)
	for zone(0) != "Asia/Tokyo" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if z := zone(0); z != "Asia/Tokyo" {
		t.Fatalf("seat 0's zone is %q after its page opened in Tokyo", z)
	}
	if z := zone(1); z != "" {
		t.Errorf("seat 1, which never opened its page, has zone %q", z)
	}

	// The page says, in one closed line, the zone it found (the browser
	// told it: issue #43), and the question is a tap away; the player
	// answers with a city; the script keeps the answer over the browser's
	// zone.
	if open, v, line := eval[bool](t, tb, `document.getElementById("zone").open`), eval[string](t, tb, `document.getElementById("zone-input").value`),
		eval[string](t, tb, `document.querySelector("#zone > summary").textContent`); open || v != "Asia/Tokyo" || !strings.Contains(line, "Asia/Tokyo") {
		t.Fatalf("the first visit's time-zone line: open %v, zone %q, line %q (want closed, naming Asia/Tokyo)", open, v, line)
	}
	within(t, tb, 20*time.Second, "answer Paris",
		chromedp.Click(chromedp.CSS("#zone > summary")),
		chromedp.WaitVisible(chromedp.CSS("#zone-input")),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("zone-input").value = ""`),
		chromedp.SendKeys(chromedp.CSS("#zone-input"), "Paris"),
		chromedp.Click(chromedp.CSS("#zone-save")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`!!document.querySelector("#live-notices .notice") && document.querySelector("#live-notices .notice").textContent.includes("Europe/Paris") && !document.getElementById("zone").open`,
				chromedp.WithPollingTimeout(15*time.Second))(ctx, tg)
			return err
		}),
	)
	if z := zone(0); z != "Europe/Paris" {
		t.Fatalf("seat 0's zone is %q after the player answered Paris", z)
	}
	within(t, tb, 20*time.Second, "reload in Tokyo",
		chromedp.Navigate(e.url+"/play/"+id),
		chromedp.WaitVisible(chromedp.CSS("#game")),
	)
	if tz, z := eval[string](t, tb, `document.body.dataset.tz`), zone(0); tz != "Europe/Paris" || z != "Europe/Paris" {
		t.Fatalf("after a reload in Tokyo, the page is told in %q and the seat's zone is %q (want the chosen Europe/Paris)", tz, z)
	}
	within(t, tb, 20*time.Second, "follow the device",
		chromedp.Click(chromedp.CSS("#zone > summary")),
		chromedp.WaitVisible(chromedp.CSS("#zone-follow")),
		chromedp.Click(chromedp.CSS("#zone-follow")),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`!!document.querySelector("#live-notices .notice") && document.querySelector("#live-notices .notice").textContent.includes("Asia/Tokyo")`,
				chromedp.WithPollingTimeout(15*time.Second))(ctx, tg)
			return err
		}),
	)
	if z := zone(0); z != "Asia/Tokyo" {
		t.Fatalf("seat 0's zone is %q after following the device in Tokyo", z)
	}

	// A forged cookie: the page still opens, the zone stays.
	b := e.browser()
	b.open(id, 0)
	for _, bad := range []string{"Mars/Olympus", "Local", "../../etc/passwd"} {
		req := "/play/" + id
		u, err := url.Parse(e.url)
		if err != nil {
			t.Fatal(err)
		}
		b.jar.SetCookies(u, []*http.Cookie{{Name: "pbem_tz", Value: bad, Path: "/"}})
		if p := b.get(req); p.Status != 200 {
			t.Fatalf("play page with zone cookie %q: %d", bad, p.Status)
		}
		if z := zone(0); z != "Asia/Tokyo" {
			t.Errorf("zone cookie %q changed the seat's zone to %q", bad, z)
		}
	}
}
