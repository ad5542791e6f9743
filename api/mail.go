package api

import (
	"errors"
	"net/http"
	"pbem/events"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/api/inbound"
	"pbem/events/tokens"
	"pbem/notify"
)

// MailConfig is what the mail routes need (Config.Mail).
type MailConfig struct {
	// Secret is PBEM_SECRET (unsubscribe tokens are signed with it).
	Secret []byte
	// Prefs keeps the players' mail preferences.
	Prefs notify.PrefStore
	// Outbox lists a game's failed emails for its admin.
	Outbox notify.OutboxStore
	// Service authenticates the admin token (the game service's reads).
	Service Reads
	// Mailbox is the dev mailbox: set only when no PBEM_SMTP_URL is
	// configured, and then GET /dev/mail lists it.
	Mailbox notify.MailboxStore
	// Replies reads replies to emails (the mail listener's processor):
	// with the dev mailbox, each email there can be answered from the page
	// as its recipient would, through the same code path.
	Replies *inbound.Processor
	// MailGrace is how long the emails of a move wait before they go
	// (PBEM_MAIL_GRACE): the dev mailbox says it, so that an email that
	// comes minutes after its move surprises no one.
	MailGrace time.Duration
}

type mailRoutes struct {
	cfg   MailConfig
	pages *mailPages
	cop   *http.CrossOriginProtection
}

// newMailRoutes returns the mail handlers of cfg (their routes are in
// routes.go).
func newMailRoutes(cfg MailConfig) *mailRoutes {
	return &mailRoutes{cfg: cfg, pages: newMailPages(), cop: http.NewCrossOriginProtection()}
}

// pageHeaders keeps the signed link out of caches and Referer headers.
func pageHeaders(c echo.Context) {
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
}

// unsubscribePage: GET /mail/unsubscribe. A GET never changes state (mail
// scanners follow links): it shows a form that POSTs the choice.
func (m *mailRoutes) unsubscribePage(c echo.Context) error {
	pageHeaders(c)
	lang := m.pages.lang(c.QueryParam("lang"))
	token := c.QueryParam("token")
	email, err := tokens.VerifyUnsubscribe(m.cfg.Secret, token)
	if err != nil {
		return m.pages.render(c, http.StatusBadRequest, lang, prefsPage{Bad: true})
	}
	modes, err := m.cfg.Prefs.Modes(c.Request().Context(), []string{email})
	if err != nil {
		return err
	}
	cur := modes[email]
	if cur == "" {
		cur = notify.Every
	}
	return m.pages.render(c, http.StatusOK, lang, prefsPage{Email: email, Token: token, Current: cur})
}

// unsubscribe: POST /mail/unsubscribe. A browser's form sent from another
// site is refused (403, the cross-origin check of page_guard.go); the
// one-click POST of a mail provider carries no Origin and passes, the
// token being its authority.
func (m *mailRoutes) unsubscribe(c echo.Context) error {
	pageHeaders(c)
	if err := m.cop.Check(c.Request()); err != nil {
		return errCrossOrigin
	}
	lang := m.pages.lang(c.QueryParam("lang"))
	token := c.QueryParam("token")
	if token == "" {
		token = c.FormValue("token")
	}
	email, err := tokens.VerifyUnsubscribe(m.cfg.Secret, token)
	if err != nil {
		return m.pages.render(c, http.StatusBadRequest, lang, prefsPage{Bad: true})
	}
	mode := notify.Off
	if c.FormValue("List-Unsubscribe") != "One-Click" {
		if mode, err = notify.ParseMode(c.FormValue("mode")); err != nil {
			return m.pages.render(c, http.StatusBadRequest, lang, prefsPage{Email: email, Token: token, Current: notify.Every, BadMode: true})
		}
	}
	if err := m.cfg.Prefs.SetMode(c.Request().Context(), email, mode); err != nil {
		return err
	}
	return m.pages.render(c, http.StatusOK, lang, prefsPage{Email: email, Token: token, Current: mode, Saved: true})
}

// failedEmailsBody is the answer of GET /api/v1/games/:id/admin/failed-emails.
type failedEmailsBody struct {
	GameID string               `json:"game_id"`
	Failed []notify.FailedEmail `json:"failed"`
}

// failedEmails: GET /api/v1/games/:id/admin/failed-emails, with the game's
// admin token as Authorization: Bearer.
func (m *mailRoutes) failedEmails(c echo.Context) error {
	tok := bearer(c)
	if tok == "" {
		return events.Errorf(events.CodeUnauthorized, "give the game's admin token as Authorization: Bearer TOKEN")
	}
	id := c.Param("id")
	auth, err := m.cfg.Service.Authenticate(c.Request().Context(), id, tok)
	if err != nil {
		return err
	}
	if !auth.Admin {
		return events.Errorf(events.CodeForbidden, "only the game's admin sees its failed emails")
	}
	failed, err := m.cfg.Outbox.Failed(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if failed == nil {
		failed = []notify.FailedEmail{}
	}
	return c.JSON(http.StatusOK, failedEmailsBody{GameID: id, Failed: failed})
}

// devMail: GET /dev/mail, the newest 100 messages of the dev mailbox with
// their links clickable.
func (m *mailRoutes) devMail(c echo.Context) error {
	pageHeaders(c)
	msgs, err := m.cfg.Mailbox.List(c.Request().Context(), 100)
	if err != nil {
		return err
	}
	r := c.QueryParam("r")
	if len(r) > 300 {
		r = r[:300]
	}
	return m.pages.renderMailbox(c, mailboxPage{Msgs: msgs, Replies: m.cfg.Replies != nil, Result: r, Grace: graceWords(m.cfg.MailGrace)})
}

// devMailHTML: GET /dev/mail/:id/html, the HTML part of a message of the
// dev mailbox as a mail client shows it (at a phone's width too: the
// emails carry a viewport). It is the email's own document, served with
// a sandbox (mailHTMLHeaders), as email HTML is: no script runs, nothing
// is loaded, no form is sent. Errors: events.CodeNotFound for an unknown
// message or one without an HTML part.
func (m *mailRoutes) devMailHTML(c echo.Context) error {
	pageHeaders(c)
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return events.Errorf(events.CodeNotFound, "no such message in the dev mailbox")
	}
	msg, err := m.cfg.Mailbox.Get(c.Request().Context(), id)
	switch {
	case errors.Is(err, notify.ErrNoMail):
		return events.Errorf(events.CodeNotFound, "no such message in the dev mailbox")
	case err != nil:
		return err
	case msg.HTML == "":
		return events.Errorf(events.CodeNotFound, "this message has no HTML part")
	}
	return c.HTMLBlob(http.StatusOK, []byte(msg.HTML))
}

// segment is a piece of a text body: plain text, or a link.
type segment struct {
	Text string
	Link bool
}

// linkify splits text into plain and http(s) link segments.
func linkify(text string) []segment {
	var out []segment
	for text != "" {
		i := indexURL(text)
		if i < 0 {
			out = append(out, segment{Text: text})
			break
		}
		if i > 0 {
			out = append(out, segment{Text: text[:i]})
		}
		j := i + strings.IndexFunc(text[i:], func(r rune) bool {
			return r == ' ' || r == '\n' || r == '\r' || r == '\t' || r == '<' || r == '>' || r == '"'
		})
		if j < i {
			j = len(text)
		}
		out = append(out, segment{Text: text[i:j], Link: true})
		text = text[j:]
	}
	return out
}

func indexURL(s string) int {
	a, b := strings.Index(s, "https://"), strings.Index(s, "http://")
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}
