package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/engine"
	"pbem/notify"
	"pbem/projections/outbox"
)

// TestBrowserEmailsReadWellOnAPhone renders the emails that tell the story
// (a your-turn email with a long story, a round-end email with its summary,
// the game-over table, a notice) and opens each HTML part in chromium on a
// 360-pixel-wide phone: nothing is wider than the screen (no sideways
// scrolling, long links wrap), and no text is smaller than 14 pixels.
func TestBrowserEmailsReadWellOnAPhone(t *testing.T) {
	root := startBrowser(t)
	r, err := notify.NewRenderer(notify.RenderConfig{Secret: secret, PublicURL: "https://pbem.example.org"})
	if err != nil {
		t.Fatal(err)
	}
	dl := time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)
	p := outbox.Payload{To: outbox.Recipient{Seat: 1, Name: "Bérénice", Email: "berenice@example.org"}, Language: "fr",
		Game:     outbox.GameInfo{ID: "g1phone", Name: "lords-of-scotland", Players: []string{"Anne-Sophie", "Bérénice", "Charles-Édouard", "Dominique"}},
		TokenGen: 0, Version: 40, Deadline: &dl, Awaited: true, Notice: "extended",
		Lines:   []string{"Anne-Sophie récupère le partisan Fergusson 12", "La manche 2 commence\u202f; partisans\u00a0: MacDonnell 1, Scott 8, Cockburn 9"},
		Ranking: []outbox.Rank{{Seat: 1, Name: "Bérénice", Place: 1, Score: 58}, {Seat: 0, Name: "Anne-Sophie", Place: 2, Score: 41}, {Seat: 2, Name: "Charles-Édouard", Place: 3, Score: 40}, {Seat: 3, Name: "Dominique", Place: 4, Score: 12}},
		Summary: "Bérénice gagne avec 58 points."}
	payload, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var story []notify.StoryEvent
	for i, who := range []int{0, 0, 0, 2, 2, 3, 3, 3, 3} {
		story = append(story, notify.StoryEvent{Version: int64(30 + i), Actor: "seat:" + string(rune('0'+who)), Seat: who,
			Summary: p.Game.Players[who] + " a levé Fergusson 12 face visible et a échangé avec votre Scott 9 grâce au pouvoir de Forsyth"})
	}
	round := &engine.RoundSummary{Round: 2, Columns: []string{"Armée", "Total", "Doublé", "Rang", "Partisans récupérés"},
		Rows: []engine.RoundRow{
			{Seat: 2, Cells: []string{"Forsyth 6, MacDonnell 10, Wemyss 3, Wemyss 9, Cochrane 11", "39", "non", "1", "Scott 4, Makgill 7"}},
			{Seat: 1, Cells: []string{"Cochrane 7, Scott 2, MacDonnell 11", "20", "non", "2", "Wemyss 2"}},
		},
		Notes: []string{"Charles-Édouard prend l'initiative."}}
	rows := map[string]notify.Row{
		"your_turn":  {ID: 1, GameID: "g1phone", Seat: 1, Kind: outbox.YourTurn, Payload: payload, Story: &notify.Story{Events: story, Zone: "Europe/Paris"}},
		"round_end":  {ID: 2, GameID: "g1phone", Seat: 1, Kind: outbox.RoundEnd, Payload: payload, Story: &notify.Story{Rounds: []*engine.RoundSummary{round}}},
		"game_over":  {ID: 3, GameID: "g1phone", Seat: 1, Kind: outbox.GameOver, Payload: payload},
		"notice":     {ID: 4, GameID: "g1phone", Seat: 1, Kind: outbox.Notice, Payload: payload},
		"invitation": {ID: 5, GameID: "g1phone", Seat: 1, Kind: outbox.Invitation, Payload: payload},
	}
	pages := map[string]string{}
	for name, row := range rows {
		m, err := r.Render(row)
		if err != nil {
			t.Fatal(err)
		}
		pages["/"+name] = m.HTML
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(pages[req.URL.Path]))
	}))
	t.Cleanup(hs.Close)
	shots := os.Getenv("PBEM_SCREENSHOTS")
	phone := tab(t, root, 360, 740, true)
	for name := range rows {
		within(t, phone, 20*time.Second, name, chromedp.Navigate(hs.URL+"/"+name), chromedp.WaitVisible(chromedp.CSS("body")))
		if w := eval[int](t, phone, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); w > 0 {
			t.Errorf("the %s email is %d pixels wider than a phone", name, w)
		}
		small := eval[string](t, phone, `Array.from(document.querySelectorAll("body *")).filter(function (e) {
			return e.childNodes.length && Array.from(e.childNodes).some(function (n) { return n.nodeType === 3 && n.textContent.trim(); }) &&
				parseFloat(getComputedStyle(e).fontSize) < 14; }).map(function (e) { return e.tagName + ": " + e.textContent.slice(0, 40); }).join(" | ")`)
		if small != "" {
			t.Errorf("the %s email has text smaller than 14px: %s", name, small)
		}
		// Without a viewport, a phone lays the page out 980 pixels wide and
		// shrinks it.
		if w := eval[int](t, phone, `window.innerWidth`); w != 360 || !strings.Contains(pages["/"+name], `name="viewport"`) {
			t.Errorf("the %s email is laid out %d pixels wide on a 360-pixel phone", name, w)
		}
		if shots != "" {
			screenshot(t, phone, shots, "email-"+name+".png")
		}
	}
}
