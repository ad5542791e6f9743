package api

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"pbem/engine/i18n"
	"pbem/notify"
)

// mailPages renders the mail preference page (in the pages' languages,
// texts from the pages' catalog) and the dev mailbox (English: a
// developer's tool).
type mailPages struct {
	prefs   *templates
	mailbox *template.Template
}

// prefsPage is the data of the preference page, a page of the site: its
// layout, style sheet and catalog (web/templates/prefs.html).
type prefsPage struct {
	base
	Email   string
	Token   string
	Current notify.Mode
	// Modes are the choices, in the order shown.
	Modes   []notify.Mode
	Saved   bool
	Bad     bool
	BadMode bool
}

// mailboxHTML is the dev mailbox page. It reads on a phone as on a
// desktop: a viewport (without one a phone lays it out 980 pixels wide and
// shrinks it), and long words (links with their tokens, Message-IDs,
// addresses) wrap anywhere rather than run off the screen. Its styles are
// the page's own (the mail pages' Content-Security-Policy allows inline
// styles).
const mailboxHTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>pbem dev mailbox</title>
<style>
body{font-family:sans-serif;max-width:50em;margin:1em auto;padding:0 1em;overflow-wrap:anywhere}
article{border-top:1px solid #ccc;padding:.5em 0}
h2{font-size:1.1em;margin:.3em 0}
.meta{color:#555;margin:0}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f6f6;padding:.7em}
textarea{box-sizing:border-box;display:block;width:100%;max-width:100%;font:inherit}
</style></head>
<body>
<h1>Dev mailbox</h1>
<p>No PBEM_SMTP_URL is set, so emails land here instead of being sent. Newest first (at most 100).
An email with a Reply-To can be answered below as its recipient would: a number from its list, the move in words,
or a line that starts with "chat:". The answer goes through the same code as a reply by email.</p>
<p>{{if .Grace}}Emails wait {{.Grace}} after a move before they go, so that a move taken back is not emailed; PBEM_MAIL_GRACE sets it.{{else}}Emails go as soon as a move is played (PBEM_MAIL_GRACE is 0).{{end}}</p>
{{with .Result}}<p role="status"><strong>Your reply: {{.}}</strong></p>{{end}}
{{range .Msgs}}{{$m := .}}<article>
<h2>{{.Subject}}</h2>
<p class="meta">To: {{.To}} · From: {{.From}} · {{.CreatedAt.UTC.Format "2006-01-02 15:04:05 UTC"}}<br>
Message-ID: {{index .Headers "Message-ID"}}{{with index .Headers "List-Unsubscribe"}} · List-Unsubscribe: {{.}}{{end}}</p>
{{if .HTML}}<p class="meta"><a href="/dev/mail/{{.ID}}/html">View the HTML part</a> (as a mail client shows it: no script runs)</p>{{end}}
<pre>{{range linkify .Text}}{{if .Link}}<a href="{{.Text}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}</pre>
{{with index .Headers "Reply-To"}}{{if $.Replies}}<form method="post" action="/dev/mail/reply">
<input type="hidden" name="from" value="{{$m.To}}"><input type="hidden" name="to" value="{{.}}">
<input type="hidden" name="subject" value="{{$m.Subject}}"><input type="hidden" name="in_reply_to" value="{{index $m.Headers "Message-ID"}}">
<label>Reply as {{$m.To}}: <textarea name="text" rows="2" cols="50" required></textarea></label>
<button type="submit">Send the reply</button>
</form>{{end}}{{end}}
</article>
{{else}}<p>No messages yet.</p>{{end}}
</body></html>
`

func newMailPages() *mailPages {
	funcs := template.FuncMap{
		"linkify": linkify,
	}
	return &mailPages{
		prefs:   mustTemplates(),
		mailbox: template.Must(template.New("mailbox").Funcs(funcs).Parse(mailboxHTML)),
	}
}

// lang returns a supported page language (the default for anything else).
func (p *mailPages) lang(l string) string { return i18n.Norm(l) }

// render shows the preference page d in lang. It is served by the mail
// routes, with or without the other pages: the style sheet is always
// inline (the pages' Content-Security-Policy allows it by its hash), and
// the page has no language menu.
func (p *mailPages) render(c echo.Context, status int, lang string, d prefsPage) error {
	securityHeaders(c)
	d.base = base{Lang: lang, TZ: location(c).String(), InlineCSS: pageStyle.css}
	d.Title = pageCatalog.T(lang, "prefs.title")
	d.Modes = []notify.Mode{notify.Every, notify.DailyDigest, notify.Off}
	var b bytes.Buffer
	if err := p.prefs.execute(&b, lang, "prefs", d); err != nil {
		return err
	}
	return c.HTMLBlob(status, b.Bytes())
}

// mailboxPage is the data of the dev mailbox page.
type mailboxPage struct {
	Msgs []notify.StoredMail
	// Replies is set when emails can be answered from the page.
	Replies bool
	// Result says what became of the last reply sent from the page.
	Result string
	// Grace is MailConfig.MailGrace in words ("2 minutes"; "": none).
	Grace string
}

// graceWords tells a mail grace in words: "2 minutes", "1 minute",
// "90s"; "" for none.
func graceWords(d time.Duration) string {
	switch {
	case d <= 0:
		return ""
	case d == time.Minute:
		return "1 minute"
	case d%time.Minute == 0:
		return strconv.Itoa(int(d/time.Minute)) + " minutes"
	}
	return d.String()
}

func (p *mailPages) renderMailbox(c echo.Context, d mailboxPage) error {
	var b bytes.Buffer
	if err := p.mailbox.Execute(&b, d); err != nil {
		return err
	}
	return c.HTMLBlob(http.StatusOK, b.Bytes())
}
