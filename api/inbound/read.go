package inbound

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // charsets beyond UTF-8 (ISO-8859-1, Windows-1252...)
	"github.com/emersion/go-message/mail"
)

// maxParts bounds the MIME parts looked at in one message.
const maxParts = 50

// maxPartBytes bounds the text read from one part (the listener's size
// limit bounds the whole message before that).
const maxPartBytes = 256 << 10

// letter is what the listener reads from a message.
type letter struct {
	header mail.Header
	// text is the first text/plain part, or the first text/html part
	// turned into text when there is none (phone clients send HTML only).
	text string
	// html is the text/html part read when there is no text/plain one.
	html string
	// dsn holds the fields of a delivery status part, if any:
	// message/delivery-status (RFC 3464) or message/global-delivery-status
	// (RFC 6533, written by relays for a message sent with SMTPUTF8).
	dsn string
}

// errNoText is returned for a message with no readable text part.
var errNoText = errors.New("inbound: no text in the message")

// readLetter parses a raw message: headers, the text of the reply, and a
// delivery status report if it is one. A charset it does not know is read
// as is rather than refused. Reading stops at deadline (now is the clock):
// then it returns errReadDeadline, whatever it read.
func readLetter(raw []byte, deadline time.Time, now func() time.Time) (*letter, error) {
	dr := &deadlineReader{r: bytes.NewReader(raw), at: deadline, now: now}
	l, err := readParts(dr)
	if dr.expired {
		return nil, errReadDeadline
	}
	if l != nil && l.html != "" {
		hr := &deadlineReader{r: strings.NewReader(l.html), at: deadline, now: now}
		l.text = htmlText(hr)
		if hr.expired {
			return nil, errReadDeadline
		}
	}
	return l, err
}

// readParts reads the parts of a message from r.
func readParts(src io.Reader) (*letter, error) {
	r, err := mail.CreateReader(src)
	if err != nil && !message.IsUnknownCharset(err) {
		return nil, err
	}
	defer r.Close()
	l := &letter{header: r.Header}
	var plain, html string
	havePlain, haveHTML := false, false
	for i := 0; i < maxParts; i++ {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil && !message.IsUnknownCharset(err) {
			if havePlain || haveHTML {
				break // keep what was read before a broken part
			}
			return nil, err
		}
		var ct string
		switch h := p.Header.(type) {
		case *mail.InlineHeader:
			ct, _, _ = h.ContentType()
		case *mail.AttachmentHeader:
			ct, _, _ = h.ContentType()
		}
		body, rerr := io.ReadAll(io.LimitReader(p.Body, maxPartBytes))
		if rerr != nil && !message.IsUnknownCharset(rerr) {
			continue
		}
		switch {
		case ct == "text/plain" && !havePlain:
			if _, inline := p.Header.(*mail.InlineHeader); inline {
				plain, havePlain = string(body), true
			}
		case ct == "text/html" && !haveHTML:
			html, haveHTML = string(body), true
		case (ct == "message/delivery-status" || ct == "message/global-delivery-status") && l.dsn == "":
			l.dsn = string(body)
		}
	}
	switch {
	case havePlain:
		l.text = plain
	case haveHTML:
		l.html = html // turned into text by readLetter
	case l.dsn == "":
		return l, errNoText
	}
	return l, nil
}

// lines splits text into lines without their line ends and trailing
// blanks, a no-break space read as a space: French puts one before ":"
// (pbem's emails ask for "fuseau\u00a0: Paris", and French mail clients
// write "a écrit\u00a0:"), and the grammar's patterns match spaces.
func lines(text string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), maxPartBytes+1)
	for sc.Scan() {
		out = append(out, strings.TrimRight(noBreakSpaces.Replace(sc.Text()), " \t\r"))
	}
	return out
}

// noBreakSpaces turns the no-break spaces (U+00A0, narrow U+202F, figure
// U+2007) into spaces.
var noBreakSpaces = strings.NewReplacer("\u00a0", " ", "\u202f", " ", "\u2007", " ")
