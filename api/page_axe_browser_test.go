package api_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"pbem/engine/lords"
	"pbem/events/play"
	"pbem/events/tokens"
)

// axeVersion is the axe-core release the accessibility test runs.
const axeVersion = "4.14.1"

// axeSource returns axe-core's script: from PBEM_AXE_JS, else from a cache
// directory where the test installs it with npm the first time (.ci/run
// makes sure npm is there). Outside CI, a machine without npm skips.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("PBEM_AXE_JS")
	if path == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir := filepath.Join(cache, "pbem-axe-"+axeVersion)
		path = filepath.Join(dir, "node_modules", "axe-core", "axe.min.js")
		if _, err := os.Stat(path); err != nil {
			if _, err := exec.LookPath("npm"); err != nil {
				if os.Getenv("CI") == "" {
					t.Skip("no npm to install axe-core (and CI is unset)")
				}
				t.Fatal("CI needs npm to install axe-core")
			}
			cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--prefix", dir, "axe-core@"+axeVersion)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("npm install axe-core: %v\n%s", err, out)
			}
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// axeViolation is one rule axe-core found broken on a page.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []any `json:"target"`
	} `json:"nodes"`
}

// axeRun injects axe-core into the tab's page, runs it, and returns the
// serious and critical violations.
func axeRun(t *testing.T, tb context.Context, src string) []axeViolation {
	t.Helper()
	c, cancel := context.WithTimeout(tb, 60*time.Second)
	defer cancel()
	if _, err := chromedp.Run(c, chromedp.Evaluate[chromedp.Void](src)); err != nil {
		t.Fatalf("inject axe-core: %v", err)
	}
	out, err := chromedp.Run(c, chromedp.Evaluate[string](`axe.run(document).then(function (r) {
  return JSON.stringify(r.violations.filter(function (v) { return v.impact === "serious" || v.impact === "critical"; }));
})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe.run: %v", err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestBrowserAxeFindsNoSeriousViolation runs axe-core in chromium on the
// lobby (also refused, with its summary of every problem), the play page
// of both games mid-game and finished, My games, the admin page and the
// help pages, on a phone (390x844) and on a desktop (1280x900, the
// two-column layout): no serious or critical violation.
func TestBrowserAxeFindsNoSeriousViolation(t *testing.T) {
	root := startBrowser(t)
	src := axeSource(t)
	e := newPageEnv(t)
	// submit, if set, is a button the test presses on the page, and
	// then the page it leads to is checked.
	type target struct{ name, link, path, submit string }
	var pages []target
	pages = append(pages, target{"lobby", "", "/", ""}, target{"lobby refused", "", "/", "form.lobby button.primary"},
		target{"my games", "", "/me", ""})
	for _, g := range bothGames {
		mid := e.createGame(g.name, g.players, "en", "")
		e.playToEnd(mid, 3, 6)
		seat := e.toMove(mid)
		pages = append(pages, target{g.name + " mid-game", "/play/" + mid + "?token=" + url.QueryEscape(tokens.Seat(secret, mid, seat, 0)), "/play/" + mid, ""})
		end := e.createGame(g.name, g.players, "en", "")
		e.playToEnd(end, 5, 5000)
		pages = append(pages, target{g.name + " finished", "/play/" + end + "?token=" + url.QueryEscape(tokens.Seat(secret, end, 0, 0)), "/play/" + end, ""})
		pages = append(pages, target{g.name + " help", "", "/help/" + g.name + "?lang=en", ""})
		pages = append(pages, target{g.name + " admin", "", "", ""})
	}
	cg, err := e.svc.Create(context.Background(), play.CreateGame{Organiser: play.Organiser{Name: "Org", Email: "org@example.org"},
		Game: lords.Name, Language: "en", Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range pages {
		if strings.HasSuffix(pages[i].name, " admin") {
			pages[i].link, pages[i].path = "/admin/"+cg.ID+"?token="+url.QueryEscape(cg.AdminToken), "/admin/"+cg.ID
		}
	}
	for _, vp := range phoneAndDesktop {
		tb := tab(t, root, vp.w, vp.h, vp.mobile)
		for _, p := range pages {
			if p.link != "" {
				within(t, tb, 20*time.Second, p.name+" link", chromedp.Navigate(e.url+p.link), chromedp.WaitVisible(chromedp.CSS("main")))
			}
			within(t, tb, 20*time.Second, p.name, chromedp.Navigate(e.url+p.path), chromedp.WaitVisible(chromedp.CSS("main")))
			if p.submit != "" {
				// The empty lobby form: every player's name and address and
				// the organiser's are missing.
				within(t, tb, 20*time.Second, p.name+" submitted", chromedp.Click(chromedp.CSS(p.submit)),
					chromedp.WaitVisible(chromedp.CSS("#problems")))
			}
			for _, v := range axeRun(t, tb, src) {
				var where []string
				for _, n := range v.Nodes {
					b, _ := json.Marshal(n.Target)
					where = append(where, string(b))
				}
				t.Errorf("%s (%dx%d): %s %s: %s at %s", p.name, vp.w, vp.h, v.Impact, v.ID, v.Help, strings.Join(where, " "))
			}
		}
		release(tb)
	}
}
