package api

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"net/mail"
	"net/url"
	"pbem/events"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/api/inbound"
)

// devReply: POST /dev/mail/reply (form: from, to, in_reply_to, subject,
// text). The dev mailbox's reply form answers an email as its recipient
// would: it writes the reply as a plain-text message and hands it to the
// mail listener's processor, the same code path as a reply that arrives by
// SMTP. It answers 303 to /dev/mail with what became of the reply.
//
// A form sent from another site is refused (403), as the pages' forms are.
func (m *mailRoutes) devReply(c echo.Context) error {
	if err := m.cop.Check(c.Request()); err != nil {
		return errCrossOrigin
	}
	from, to := strings.TrimSpace(c.FormValue("from")), strings.TrimSpace(c.FormValue("to"))
	if _, err := mail.ParseAddress(from); err != nil || strings.ContainsAny(from+to, "\r\n") {
		return events.Errorf(events.CodeInvalid, "from: give the address the email was sent to")
	}
	text := c.FormValue("text")
	if len(text) > 64<<10 {
		return events.Errorf(events.CodeInvalid, "text: at most 64 KiB")
	}
	ctx := c.Request().Context()
	a, err := m.cfg.Replies.Check(ctx, to)
	var refused *inbound.RefusedError
	if errors.As(err, &refused) {
		return c.Redirect(http.StatusSeeOther, "/dev/mail?r="+url.QueryEscape("refused: "+refused.Reason))
	}
	if err != nil {
		return err
	}
	out, err := m.cfg.Replies.Handle(ctx, from, a, devMessage(from, to, c.FormValue("subject"), c.FormValue("in_reply_to"), text))
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/dev/mail?r="+url.QueryEscape(string(out)))
}

// devMessage writes a plain-text reply as a mail client would.
func devMessage(from, to, subject, inReplyTo, text string) []byte {
	clean := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	id := make([]byte, 12)
	_, _ = rand.Read(id)
	var b strings.Builder
	b.WriteString("From: " + clean(from) + "\r\nTo: " + clean(to) + "\r\n")
	b.WriteString("Subject: " + mimeWord(clean("Re: "+subject)) + "\r\n")
	b.WriteString("Date: " + time.Now().UTC().Format(time.RFC1123Z) + "\r\n")
	b.WriteString("Message-ID: <dev-" + hex.EncodeToString(id) + "@dev.mailbox>\r\n")
	if irt := clean(inReplyTo); irt != "" && !strings.ContainsAny(irt, " ") {
		b.WriteString("In-Reply-To: " + irt + "\r\n")
	}
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
	b.WriteString(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n"))
	return []byte(b.String())
}

// mimeWord encodes a header value that is not plain ASCII.
func mimeWord(s string) string {
	for _, r := range s {
		if r >= 128 {
			return mimeQ(s)
		}
	}
	return s
}

func mimeQ(s string) string {
	var b strings.Builder
	b.WriteString("=?utf-8?q?")
	for _, c := range []byte(s) {
		switch {
		case c == ' ':
			b.WriteByte('_')
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			b.WriteByte(c)
		default:
			b.WriteString("=" + strings.ToUpper(hex.EncodeToString([]byte{c})))
		}
	}
	b.WriteString("?=")
	return b.String()
}
