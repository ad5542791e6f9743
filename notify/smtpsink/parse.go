package smtpsink

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
)

// Parsed is a received message, decoded.
type Parsed struct {
	Header  mail.Header
	Subject string
	Text    string
	HTML    string
}

// Parse decodes a multipart/alternative message with a text and an HTML
// part (quoted-printable or base64).
func Parse(data []byte) (Parsed, error) {
	var p Parsed
	m, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		return p, err
	}
	p.Header = m.Header
	dec := new(mime.WordDecoder)
	if p.Subject, err = dec.DecodeHeader(m.Header.Get("Subject")); err != nil {
		return p, err
	}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		return p, err
	}
	if mt != "multipart/alternative" {
		return p, fmt.Errorf("content type %s, want multipart/alternative", mt)
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p, err
		}
		var r io.Reader = part
		switch strings.ToLower(part.Header.Get("Content-Transfer-Encoding")) {
		case "base64":
			r = base64.NewDecoder(base64.StdEncoding, part)
		case "quoted-printable":
			r = quotedprintable.NewReader(part)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			return p, err
		}
		b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		switch ct {
		case "text/plain":
			p.Text = string(b)
		case "text/html":
			p.HTML = string(b)
		}
	}
	return p, nil
}
