package api

import (
	"net"
	"net/netip"
	"pbem/events"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// The dev mailbox (GET /dev/mail, GET /dev/mail/:id/html, POST
// /dev/mail/reply) holds every play, admin and sign-in link the server
// sent: it is served to this machine only. loopbackOnly refuses a request
// unless both the connection's peer and the client IP (which differs
// behind a trusted proxy: Config.TrustProxy) are loopback addresses; so a
// request relayed by a proxy on the same machine for a remote client is
// refused too.
func loopbackOnly(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		peer, _, err := net.SplitHostPort(c.Request().RemoteAddr)
		if err != nil || !isLoopback(peer) || !isLoopback(c.RealIP()) {
			return errNotLoopback
		}
		return next(c)
	}
}

// errNotLoopback is the answer of the dev mailbox to another machine.
var errNotLoopback = events.Errorf(events.CodeForbidden,
	"the dev mailbox is shown only on the server's own machine (open it at 127.0.0.1); set PBEM_SMTP_URL to send emails for real")

// isLoopback reports whether ip is a loopback address (127.0.0.0/8, ::1,
// or 127.x.y.z mapped into IPv6).
func isLoopback(ip string) bool {
	a, err := netip.ParseAddr(ip)
	return err == nil && a.Unmap().IsLoopback()
}

// mailPageHeaders adds to the mail pages (the preferences, the dev
// mailbox) echo's Secure headers: a Content-Security-Policy that allows no
// script, no frame around the page, no sniffing, no referrer. The dev
// mailbox's style sheet is inline, in the page, hence style-src 'unsafe-inline';
// the preference page, a page of the site, sets the pages' headers over
// these (securityHeaders).
var mailPageHeaders = middleware.SecureWithConfig(middleware.SecureConfig{
	XSSProtection:         "0",
	ContentTypeNosniff:    "nosniff",
	XFrameOptions:         "DENY",
	ContentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	ReferrerPolicy:        "no-referrer",
})

// mailHTMLHeaders are the headers of an email's HTML part shown from the
// dev mailbox (GET /dev/mail/:id/html): the part is a document the server
// rendered, but it is email, so it is served as a mail client would show
// it, in a sandbox (CSP sandbox: an origin of its own, no script, no form,
// no popup; a link followed opens in the same tab, as in a web mail), with
// only its inline styles and data: images allowed, and no framing, no
// sniffing, no referrer (its links hold tokens).
var mailHTMLHeaders = middleware.SecureWithConfig(middleware.SecureConfig{
	XSSProtection:      "0",
	ContentTypeNosniff: "nosniff",
	XFrameOptions:      "DENY",
	ContentSecurityPolicy: "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; " +
		"frame-ancestors 'none'; base-uri 'none'",
	ReferrerPolicy: "no-referrer",
})
