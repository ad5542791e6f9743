package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"pbem/engine/lords"
	"pbem/events/tokens"
)

// rawGet fetches path with b's cookies and the given headers, without the
// transport's transparent decompression: the body is what the wire carried.
func (b *browser) rawGet(ctx context.Context, path string, header map[string]string) *http.Response {
	b.t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.e.url+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	c := &http.Client{Jar: b.jar, Transport: &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	return resp
}

// wire reads a raw answer: its body as sent and, if gzipped, unzipped.
func wire(t testing.TB, resp *http.Response) (sent, plain []byte) {
	t.Helper()
	defer resp.Body.Close()
	sent, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("Content-Encoding") != "gzip" {
		return sent, sent
	}
	zr, err := gzip.NewReader(bytes.NewReader(sent))
	if err != nil {
		t.Fatalf("gzip: %v", err)
	}
	if plain, err = io.ReadAll(zr); err != nil {
		t.Fatalf("gunzip: %v", err)
	}
	return sent, plain
}

var gzipped = map[string]string{"Accept-Encoding": "gzip"}

// TestResponsesAreCompressed: a play page and a view's JSON are gzipped
// for a client that accepts gzip (and are the same once unzipped), sent
// as they are to one that does not; a tiny body is never gzipped.
func TestResponsesAreCompressed(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 4, "en", "")
	b := e.browser()
	b.open(id, 0)
	ctx := context.Background()
	view := "/api/v1/games/" + id + "/view"
	bearer := map[string]string{"Authorization": "Bearer " + tokens.Seat(secret, id, 0, 0)}
	bearerGz := map[string]string{"Authorization": bearer["Authorization"], "Accept-Encoding": "gzip, deflate, br"}
	for _, c := range []struct {
		name, path string
		plain, gz  map[string]string
		want       string
	}{
		{"play page", "/play/" + id, nil, gzipped, "<html"},
		{"view JSON", view, bearer, bearerGz, `"version"`},
	} {
		resp := b.rawGet(ctx, c.path, c.plain)
		_, plain := wire(t, resp)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" || !bytes.Contains(plain, []byte(c.want)) {
			t.Fatalf("%s without Accept-Encoding: %d, Content-Encoding %q", c.name, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		resp = b.rawGet(ctx, c.path, c.gz)
		sent, unzipped := wire(t, resp)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s with Accept-Encoding gzip: %d, Content-Encoding %q", c.name, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		if !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary %q lacks Accept-Encoding", c.name, resp.Header.Get("Vary"))
		}
		if !bytes.Contains(unzipped, []byte(c.want)) || len(sent)*2 > len(unzipped) {
			t.Errorf("%s: %d bytes sent for %d, want under half", c.name, len(sent), len(unzipped))
		}
		if c.name == "view JSON" {
			var v struct{ Version int64 }
			if err := json.Unmarshal(unzipped, &v); err != nil || v.Version != e.version(id) {
				t.Errorf("unzipped view: version %d, %v", v.Version, err)
			}
		} else if !bytes.Equal(stripCSRF(unzipped), stripCSRF(plain)) {
			t.Errorf("the unzipped page differs from the plain one")
		}
	}
	resp := b.rawGet(ctx, "/healthz", gzipped)
	if _, body := wire(t, resp); resp.Header.Get("Content-Encoding") != "" || !bytes.Contains(body, []byte(`"ok"`)) {
		t.Errorf("healthz (%d bytes): Content-Encoding %q", len(body), resp.Header.Get("Content-Encoding"))
	}
}

// reToken is whatever differs between two renderings of one page.
var reToken = regexp.MustCompile(`name="csrf" value="[^"]+"|data-nonce="[^"]*"`)

func stripCSRF(b []byte) []byte { return reToken.ReplaceAll(b, nil) }

// TestLiveStreamIsNotCompressed: the live-update stream is sent as it is
// even to a client that accepts gzip, and its events arrive one by one
// (a buffering compressor would hold them back).
func TestLiveStreamIsNotCompressed(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	seat := e.toMove(id)
	watcher := e.browser()
	watcher.open(id, 1-seat)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	resp := watcher.rawGet(ctx, "/play/"+id+"/events", gzipped)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("events: %d, Content-Encoding %q", resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	next := streamVersions(t, resp.Body)
	if v := next(); v != num(e.version(id)) {
		t.Fatalf("first version %s", v)
	}
	p := e.browser()
	f := moveForm(t, p.open(id, seat).Body)
	p.post("/play/"+id, url.Values{"csrf": {f.csrf}, "version": {f.version}, "move": {f.moves[0]}})
	if v := next(); v != num(e.version(id)) {
		t.Fatalf("version after the move %s, want %d", v, e.version(id))
	}
}

var reAsset = regexp.MustCompile(`(?:href|src)="(/static/(app)\.([0-9a-f]{8})(\.css|\.js))"`)

// TestStaticAssetsHaveHashedURLs: the pages link to /static/NAME.HASH.EXT
// where HASH starts the file's SHA-256; that URL is cached as immutable
// and gzipped for who accepts it; the plain URL still works (cached an
// hour); a stale hash is redirected to the current URL, uncached; an
// unknown file is 404; a known ETag gets 304.
func TestStaticAssetsHaveHashedURLs(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	b := e.browser()
	opened := b.open(id, 0)
	links := reAsset.FindAllStringSubmatch(opened.Body, -1)
	if len(links) != 2 {
		t.Fatalf("the play page links to %d hashed assets, want 2 (CSS and JS): %v", len(links), links)
	}

	ctx := context.Background()
	for _, l := range links {
		hashed, hash, plainURL := l[1], l[3], "/static/"+l[2]+l[4]
		resp := b.rawGet(ctx, hashed, nil)
		_, body := wire(t, resp)
		sum := sha256.Sum256(body)
		if resp.StatusCode != http.StatusOK || hex.EncodeToString(sum[:])[:8] != hash {
			t.Fatalf("%s: %d, content hash %x", hashed, resp.StatusCode, sum[:4])
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", hashed, cc)
		}
		resp = b.rawGet(ctx, hashed, gzipped)
		sent, unzipped := wire(t, resp)
		if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(unzipped, body) || len(sent) >= len(body) {
			t.Errorf("%s gzipped: Content-Encoding %q, %d bytes for %d", hashed, resp.Header.Get("Content-Encoding"), len(sent), len(body))
		}
		resp = b.rawGet(ctx, plainURL, nil)
		_, old := wire(t, resp)
		if resp.StatusCode != http.StatusOK || !bytes.Equal(old, body) || resp.Header.Get("Cache-Control") != "public, max-age=3600" {
			t.Errorf("%s: %d, Cache-Control %q, same body %t", plainURL, resp.StatusCode, resp.Header.Get("Cache-Control"), bytes.Equal(old, body))
		}
		stale := "/static/" + l[2] + ".0badc0de" + l[4]
		if hash == "0badc0de" {
			stale = "/static/" + l[2] + ".1badc0de" + l[4]
		}
		resp = b.rawGet(ctx, stale, nil)
		resp.Body.Close()
		if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != hashed || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d to %q, Cache-Control %q", stale, resp.StatusCode, resp.Header.Get("Location"), resp.Header.Get("Cache-Control"))
		}
		resp = b.rawGet(ctx, hashed, map[string]string{"If-None-Match": `"` + hash + `"`})
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotModified {
			t.Errorf("%s with its ETag: %d, want 304", hashed, resp.StatusCode)
		}
	}
	for _, path := range []string{"/static/nope.0badc0de.css", "/static/app.zzzzzzzz.css", "/static/app.0badc0de0.css", "/static/app.0BADC0DE.css"} {
		resp := b.rawGet(ctx, path, nil)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, resp.StatusCode)
		}
	}
}

var (
	reInlineStyle = regexp.MustCompile(`(?s)<style>(.*?)</style>`)
	rePrintCSS    = regexp.MustCompile(`<link rel="stylesheet" href="(/static/app\.[0-9a-f]{8}\.css)" media="print">`)
	reLinkedCSS   = regexp.MustCompile(`<link rel="stylesheet" href="(/static/app\.[0-9a-f]{8}\.css)">`)
)

// TestFirstVisitInlinesTheStyleSheet: a browser without the style sheet
// cookie gets app.css inline, byte for byte, allowed by its hash in the
// CSP, with a print-media link that fetches the hashed file and a cookie
// naming its hash; with that cookie, pages link the style sheet instead.
func TestFirstVisitInlinesTheStyleSheet(t *testing.T) {
	t.Parallel()
	e := newPageEnv(t)
	id := e.createGame(lords.Name, 2, "en", "")
	b := e.browser()
	first := b.open(id, 0)
	m := reInlineStyle.FindStringSubmatch(first.Body)
	if m == nil {
		t.Fatal("the first visit's page has no inline style sheet")
	}
	file := b.get("/static/app.css").Body
	if m[1] != file {
		t.Fatalf("the inline style sheet (%d bytes) is not app.css (%d bytes)", len(m[1]), len(file))
	}
	sum := sha256.Sum256([]byte(m[1]))
	src := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	if csp := first.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self' "+src+";") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q does not allow exactly the inline style sheet (%s)", csp, src)
	}
	print := rePrintCSS.FindStringSubmatch(first.Body)
	if print == nil || reLinkedCSS.MatchString(first.Body) {
		t.Fatalf("first visit: print-media link %v, render-blocking link %t", print, reLinkedCSS.MatchString(first.Body))
	}
	hash := strings.TrimSuffix(strings.TrimPrefix(print[1], "/static/app."), ".css")
	var cookie *http.Cookie
	for _, k := range (&http.Response{Header: first.Header}).Cookies() {
		if k.Name == "pbem_css" {
			cookie = k
		}
	}
	if cookie == nil || cookie.Value != hash || cookie.Path != "/" || !cookie.HttpOnly {
		t.Fatalf("first visit: style sheet cookie %+v, want pbem_css=%s on /", cookie, hash)
	}
	again := b.get("/play/" + id)
	if reInlineStyle.MatchString(again.Body) || rePrintCSS.MatchString(again.Body) {
		t.Error("a page for a browser with the cookie still inlines the style sheet")
	}
	if l := reLinkedCSS.FindStringSubmatch(again.Body); l == nil || l[1] != print[1] {
		t.Errorf("a page for a browser with the cookie links %v, want %s", l, print[1])
	}
	if strings.Contains(again.Header.Get("Set-Cookie"), "pbem_css") {
		t.Error("the cookie is set again on every page")
	}
	// A cookie of another release's style sheet gets the inline copy again.
	u, _ := url.Parse(e.url)
	b.jar.SetCookies(u, []*http.Cookie{{Name: "pbem_css", Value: "0badc0de", Path: "/"}})
	if p := b.get("/play/" + id); !reInlineStyle.MatchString(p.Body) {
		t.Error("a page for a browser with an old release's cookie does not inline the style sheet")
	}
}
