package api

import (
	"net/http"
	"net/url"
	"pbem/events"

	"github.com/labstack/echo/v4"
)

// Cross-origin protection of the HTML forms. Every page form that changes
// state (the lobby's create, a move, an admin action) is refused with 403
// when a browser says it comes from another origin, before its handler
// runs. The check is Go's net/http CrossOriginProtection (maintained with
// the standard library): a request whose Sec-Fetch-Site is not
// same-origin or none is refused; without Sec-Fetch-Site (older browsers),
// one whose Origin does not match its Host is refused; requests with
// neither header (not a browser's) pass. PBEM_PUBLIC_URL's origin is
// trusted as well, for a proxy that rewrites Host.
//
// echo's CSRF middleware is not used for this: it lets any same-origin
// Sec-Fetch-Site request through without a token and has no Origin check
// for browsers without Sec-Fetch-Site. The forms keep their own token as a
// second line (page_cookie.go): an HMAC of the session's cookie, so a form
// only works in the browser that holds the seat's or admin's cookie.
//
// The JSON API is not a CSRF target: it authenticates with a bearer token
// in the Authorization header, which a browser never adds by itself to a
// cross-site request, and it reads no cookie.

// newCrossOrigin returns the cross-origin check, trusting publicURL's
// origin if it has one.
func newCrossOrigin(publicURL string) *http.CrossOriginProtection {
	cop := http.NewCrossOriginProtection()
	if u, err := url.Parse(publicURL); err == nil && u.Scheme != "" && u.Host != "" {
		// AddTrustedOrigin only refuses malformed origins, which a parsed
		// scheme and host cannot give.
		_ = cop.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	return cop
}

// guard runs h after the page checks: the text of the path, query and
// form (400 naming the field) and, for a request that may change state,
// the cross-origin check (403).
func (p *pages) guard(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := p.cop.Check(c.Request()); err != nil {
			return errCrossOrigin
		}
		if err := checkForm(c); err != nil {
			return err
		}
		return h(c)
	}
}

// errCrossOrigin is the error of a form sent from another origin.
var errCrossOrigin = events.Errorf(events.CodeForbidden, "this form was sent from another site")
