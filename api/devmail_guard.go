package api

import (
	"net"
	"net/netip"
	"pbem/events"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// The dev mailbox (GET /dev/mail, POST /dev/mail/reply) holds every play,
// admin and sign-in link the server sent: it is served to this machine
// only. loopbackOnly refuses a request unless both the connection's peer
// and the client IP (which differs behind a trusted proxy: Config.
// TrustProxy) are loopback addresses; so a request relayed by a proxy on
// the same machine for a remote client is refused too.
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
