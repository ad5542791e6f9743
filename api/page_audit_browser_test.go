package api_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/hkdf"

	"pbem/engine/lords"
)

// TestBrowserAuditShowsCommitKey opens a finished game's audit page on a
// phone (390x844) in English, French and Italian: it shows the commitment
// key K, which is HKDF-SHA256 of the revealed seed (computed here from
// the page's seed, as a third party would), says how to check it, and
// gives the command that checks the downloaded record offline (pbem
// verify --audit). PBEM_SCREENSHOTS keeps the screenshots (the key and
// the checks, scrolled into view).
func TestBrowserAuditShowsCommitKey(t *testing.T) {
	root := startBrowser(t)
	e := newPageEnv(t)
	shots := screenshotDir(t)
	says := map[string]string{"en": "Commitment key K", "fr": "Clé d'engagement K", "it": "Chiave d'impegno K"}
	for _, lang := range []string{"en", "fr", "it"} {
		id := e.createGame(lords.Name, 2, lang, "")
		if n := e.playToEnd(id, 5, 3000); e.toMove(id) >= 0 {
			t.Fatalf("%s: not over after %d moves", lang, n)
		}
		phone := tab(t, root, 390, 844, true)
		within(t, phone, 30*time.Second, lang+" audit page",
			chromedp.Navigate(e.url+"/games/"+id+"/audit"),
			chromedp.WaitVisible(chromedp.CSS("#commit-key")),
		)
		text := eval[string](t, phone, `document.body.innerText`)
		if !strings.Contains(text, says[lang]) || !strings.Contains(text, "pbem verify --audit audit.json") ||
			!strings.Contains(text, "/api/v1/games/"+id+"/audit") {
			t.Fatalf("%s: the audit page does not show the key and the offline check:\n%s", lang, text)
		}
		seedHex := eval[string](t, phone, `document.querySelector("dl.fields dd:nth-of-type(2) code").textContent`)
		seed, err := hex.DecodeString(seedHex)
		if err != nil || len(seed) != 32 {
			t.Fatalf("%s: seed %q", lang, seedHex)
		}
		k := make([]byte, 32)
		if _, err := io.ReadFull(hkdf.New(sha256.New, seed, nil, []byte("pbem commit key v2")), k); err != nil {
			t.Fatal(err)
		}
		if got := eval[string](t, phone, `document.getElementById("commit-key").textContent`); got != hex.EncodeToString(k) {
			t.Fatalf("%s: the page's key %s is not HKDF of its seed (%x)", lang, got, k)
		}
		within(t, phone, 10*time.Second, lang+" scroll", chromedp.ScrollIntoView(chromedp.CSS("#commit-key")))
		shot(t, phone, filepath.Join(shots, "audit-key-"+lang+".png"))
		within(t, phone, 10*time.Second, lang+" scroll", chromedp.ScrollIntoView(chromedp.CSS("#verify-offline")))
		shot(t, phone, filepath.Join(shots, "audit-verify-"+lang+".png"))
	}
}

// shot saves what the tab's viewport shows.
func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	png, err := chromedp.Run(c, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
