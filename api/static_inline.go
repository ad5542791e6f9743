package api

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"

	"github.com/labstack/echo/v4"
)

// The style sheet on a first visit. A page's first paint waits for its
// style sheet; on a slow link fetching it is one more round trip after the
// page (and, from an email's link, after the token's redirect). So a
// browser that has not fetched this release's style sheet yet gets it
// inline in the page, in a <style> element that the Content-Security-Policy
// allows by its hash (no 'unsafe-inline'), with a print-media link to the
// hashed URL that the browser fetches without waiting for it, which puts
// the file in its cache. The page also sets the cssCookie cookie to the
// file's hash; pages for a browser that sends it back link the style
// sheet, which comes from the cache (immutable). A cookie without the
// cached file (a cleared cache) only costs that round trip again.
const cssCookie = "pbem_css"

// inlineStyle is the style sheet to inline, with its CSP source.
type inlineStyle struct {
	css  template.CSS // app.css, verbatim
	hash string       // its content hash (the hashed URL's, and the cookie's value)
	csp  string       // 'sha256-...': the CSP source allowing exactly this <style>
}

// pageStyle is app.css as an inline style.
var pageStyle = newInlineStyle(staticAssets.byName["app.css"])

func newInlineStyle(a *asset) inlineStyle {
	sum := sha256.Sum256(a.body)
	return inlineStyle{css: template.CSS(a.body), hash: a.hash, csp: "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"}
}

// inlineCSSFor is the style sheet to inline in a page for c's browser:
// empty when it says (cssCookie) that it has this release's file.
func inlineCSSFor(c echo.Context) template.CSS {
	if k, err := c.Cookie(cssCookie); err == nil && k.Value == pageStyle.hash {
		return ""
	}
	return pageStyle.css
}

// rememberCSS sets cssCookie on a page that inlines the style sheet (and
// thereby fetches it into the cache).
func (p *pages) rememberCSS(c echo.Context, d any) {
	if b, ok := d.(interface{ inlinesCSS() bool }); !ok || !b.inlinesCSS() {
		return
	}
	c.SetCookie(&http.Cookie{Name: cssCookie, Value: pageStyle.hash, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, Secure: p.secure(c), SameSite: http.SameSiteLaxMode})
}
