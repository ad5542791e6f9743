package api

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"pbem/events"
	"pbem/events/play"
	"pbem/notify"
)

// The HTML pages: the lobby (/), a seat's play page (/play/{game}) with its
// history and live-update stream, the audit page of an ended game
// (/games/{id}/audit) and the admin page (/admin/{game}). They are rendered
// on the server from embedded templates (api/web), in the game's language,
// with a little plain JavaScript served from /static/.
//
// Security model: a link's ?token= is swapped for an HttpOnly cookie scoped
// to the game's path and the page answers 303 to the same URL without the
// token. Every POST carries a CSRF token (HMAC of the cookie's value with
// PBEM_SECRET, double-submit) and, for moves, the version the player saw,
// and is refused when the browser says it comes from another origin
// (page_guard.go). The play page's script posts its forms itself, with
// the header X-Pbem-Fetch, and gets the page the 303 would have led to as
// the answer (page_fetch.go); the checks are the same.
// GETs never change state. Every page is sent with a strict
// Content-Security-Policy (scripts and styles only from /static/) and
// Referrer-Policy: no-referrer.

// PageConfig is what the HTML pages need. Pass PageRoutes(cfg) in
// Config.Routes.
type PageConfig struct {
	// Service is the game service.
	Service Service
	// Secret is PBEM_SECRET: CSRF tokens are derived from it.
	Secret []byte
	// Secure marks the cookies Secure (set it when PBEM_PUBLIC_URL is https).
	Secure bool
	// PublicURL is PBEM_PUBLIC_URL: the admin link shown after the lobby
	// creates a game is built on it, never on the request's Host (empty:
	// the link is a path on this server). Its origin is also trusted by
	// the cross-origin check.
	PublicURL string
	// Notify wakes the live-update streams after an append (the event
	// store's Notify). Nil: the streams poll.
	Notify func(ctx context.Context) (<-chan struct{}, error)
	// Failed lists a game's failed emails for its admin page; nil hides them.
	Failed FailedEmails
	// Zones records the time zone a seat's browser reports when its play
	// page opens (the pages' tz cookie), so that its emails tell deadlines
	// in the player's time; nil: emails stay in UTC.
	Zones ZoneRecorder
	// Logger logs unexpected errors; nil means slog.Default().
	Logger *slog.Logger
	// Poll is how often a live stream checks the version without a
	// wake-up, and its heartbeat (default 20s).
	Poll time.Duration
	// StreamFor bounds one live stream's life (default 10 minutes); the
	// browser reconnects by itself.
	StreamFor time.Duration
}

// ZoneRecorder records a seat's time zone (notify/postgres.Seats does).
type ZoneRecorder interface {
	SetZone(ctx context.Context, gameID string, seat int, zone string) error
}

// FailedEmails lists a game's failed emails (notify's outbox store does).
type FailedEmails interface {
	Failed(ctx context.Context, gameID string) ([]notify.FailedEmail, error)
}

// pages serves the HTML pages.
type pages struct {
	cfg  PageConfig
	svc  Service
	log  *slog.Logger
	tmpl *templates
	cop  *http.CrossOriginProtection
	// schemaError is the server's (unavailable.go): a missing table met
	// while the schema is being migrated is an outage.
	schemaError func(context.Context, error) error
	limit       *limiter // the server's rate limits
	audits      *auditCache
}

// newPages returns the HTML pages of cfg (their routes are in routes.go).
// It panics if the embedded templates do not parse (a build defect).
func newPages(cfg PageConfig) *pages {
	p := &pages{cfg: cfg, svc: cfg.Service, log: cfg.Logger, tmpl: mustTemplates(), cop: newCrossOrigin(cfg.PublicURL),
		audits: newAuditCache(defaultAuditCacheGames)}
	if p.log == nil {
		p.log = slog.Default()
	}
	p.log = withRequestIDs(p.log)
	if p.cfg.Poll <= 0 {
		p.cfg.Poll = 20 * time.Second
	}
	if p.cfg.StreamFor <= 0 {
		p.cfg.StreamFor = 10 * time.Minute
	}
	return p
}

// contentSecurityPolicy allows scripts, styles and fetches from this origin
// only: no inline script, and no inline style but the first visit's copy
// of the style sheet, by its hash (static_inline.go).
var contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self' " + pageStyle.csp +
	"; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// securityHeaders are sent with every page.
func securityHeaders(c echo.Context) {
	h := c.Response().Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
}

// pageError is an error page's data.
type pageError struct {
	base
	Status int
	Code   string
	// Msg is the catalog key of the explanation.
	Msg string
	// Detail explains the error, shown small (projections.ExplainError).
	Detail string
	// Back is the page a refused form came from.
	Back string
}

// wrap renders a handler's error as a friendly HTML page. Inside it, the
// handler runs under echo's BodyLimit (forms are small: a larger body is a
// 413 page) and, for every request, the text check of its parameters and
// form fields, and for a POST the cross-origin check (pageGuard). A panic
// is recovered by the server's one chain (middleware.go), whose error
// handler renders it as this page's internal error page (pageOf).
func (p *pages) wrap(h echo.HandlerFunc) echo.HandlerFunc {
	inner := middleware.BodyLimit(bodyLimit)(p.guard(h))
	return func(c echo.Context) error {
		securityHeaders(c)
		c.Set(pageKey, p)
		err := inner(c)
		if err == nil || c.Response().Committed {
			return err
		}
		return p.renderError(c, err)
	}
}

// pageKey is the context key under which wrap names the pages serving a
// request (pageOf).
const pageKey = "pbem.page"

// pageOf returns the pages serving c's request, or nil when c is not a
// page's request.
func pageOf(c echo.Context) *pages {
	p, _ := c.Get(pageKey).(*pages)
	return p
}

// renderError shows err as an HTML page with the status of its code.
func (p *pages) renderError(c echo.Context, err error) error {
	if p.schemaError != nil {
		err = p.schemaError(c.Request().Context(), err)
	}
	var lim *errLimited
	if errors.As(err, &lim) {
		c.Response().Header().Set("Retry-After", lim.retryAfter())
		d := pageError{base: p.base(c, p.errorLang(c)), Status: http.StatusTooManyRequests, Code: "rate_limited", Msg: "err.rate_limited"}
		d.Title = p.cat(d.Lang).T("err.title")
		return p.render(c, http.StatusTooManyRequests, "error", d)
	}
	code, _ := codeOf(err)
	var he *echo.HTTPError
	if errors.As(err, &he) {
		code = events.CodeInternal
		switch he.Code {
		case http.StatusNotFound:
			code = events.CodeNotFound
		case http.StatusForbidden:
			code = events.CodeForbidden
		case http.StatusBadRequest:
			code = events.CodeInvalid
		case http.StatusRequestEntityTooLarge:
			code = "too_large"
		}
	}
	status := statusFor(code, err)
	setRetryAfter(c, code)
	d := pageError{base: p.base(c, p.errorLang(c)), Status: status, Code: code}
	d.Title = p.cat(d.Lang).T("err.title")
	if path := c.Request().URL.Path; c.Request().Method == http.MethodPost {
		d.Back = "/"
		if strings.HasPrefix(path, "/play/") || strings.HasPrefix(path, "/admin/") {
			d.Back = path
		}
	}
	switch {
	case errors.Is(err, errCSRF), errors.Is(err, errCrossOrigin):
		d.Msg = "err.csrf"
	case errors.Is(err, play.ErrAdminRevoked):
		d.Msg = "err.admin_revoked"
	case status == http.StatusUnauthorized:
		d.Msg = "err.unauthorized"
	case status == http.StatusNotFound:
		d.Msg = "err.not_found"
	case status == http.StatusForbidden:
		d.Msg = "err.forbidden"
	case code == codeUnavailable:
		// "Try again in a moment" says it; Retry-After says when.
		d.Msg = "err.internal"
		p.log.WarnContext(c.Request().Context(), "database unavailable", "method", c.Request().Method, "path", c.Path(), "err", err)
	case status >= 500:
		d.Msg = "err.internal"
		p.log.ErrorContext(c.Request().Context(), "page failed", "method", c.Request().Method, "path", c.Path(), "err", err)
	default:
		d.Msg = "err.invalid"
	}
	if status < 500 {
		d.Detail = errorDetail(p.cat(d.Lang), err)
		if he != nil || errors.Is(err, play.ErrAdminRevoked) || status == http.StatusUnauthorized || status == http.StatusNotFound {
			// The message says it all; the service's own words name
			// tokens and game ids (a forged or unknown link's page).
			d.Detail = ""
		}
	}
	if msg, detail, ok := p.oldLinkText(c, p.cat(d.Lang), err); ok {
		d.Msg, d.Detail = msg, detail
	}
	return p.render(c, status, "error", d)
}

// errorLang is the language of an error page: the admin page's own when
// the request is for the admin page of a game its admin link opens
// (adminLang), so that the organiser reads the error in the page's
// language; else as pickLang chooses without a game (the browser's, for a
// forged link that opens no game).
func (p *pages) errorLang(c echo.Context) string {
	if lang, ok := p.adminLang(c); ok {
		return lang
	}
	return pickLang(c, "")
}

// render executes the page template name in d's language.
func (p *pages) render(c echo.Context, status int, name string, d any) error {
	var b bytes.Buffer
	if err := p.tmpl.execute(&b, langOf(d), name, d); err != nil {
		return err
	}
	p.rememberCSS(c, d)
	return c.HTMLBlob(status, b.Bytes())
}
