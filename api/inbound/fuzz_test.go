package inbound

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// fuzzReadTimeout is the read deadline each fuzz input gets, and
// fuzzSlack how much later than it reading must return: the deadline
// stops the MIME and HTML readers whatever the input holds.
const (
	fuzzReadTimeout = 500 * time.Millisecond
	fuzzSlack       = 2 * time.Second
)

// FuzzReadReply reads arbitrary messages as the listener does (structure
// check, MIME parts, charsets, HTML, the reply's lines and grammar, the
// automatic-message and bounce checks): nothing panics, and each input is
// read within its time bound. make test fuzzes it for FUZZ_TIME.
func FuzzReadReply(f *testing.F) {
	for _, seed := range readSeeds() {
		f.Add([]byte(seed))
	}
	labels := []string{"Play the Knight on the left", "Play 3 of Swords", "Pass"}
	f.Fuzz(func(t *testing.T, raw []byte) {
		start := time.Now()
		if err := checkShape(raw); err != nil {
			if _, ok := err.(*ShapeError); !ok {
				t.Fatalf("checkShape: %T %v", err, err)
			}
			return
		}
		l, err := readLetter(raw, start.Add(fuzzReadTimeout), time.Now)
		if took := time.Since(start); took > fuzzReadTimeout+fuzzSlack {
			t.Fatalf("reading took %v (deadline %v): %v", took, fuzzReadTimeout, err)
		}
		if l == nil {
			return
		}
		_ = automatic("a@b.example", l.header)
		_, _ = readDSN(l.dsn)
		read := replyLines(l.text)
		p := parse(read)
		for _, m := range p.moves {
			if i, several := pick(m, labels, []string{"Ann"}); i >= len(labels) || (i >= 0 && several != nil) {
				t.Fatalf("pick(%q) = %d, %v of %d labels", m, i, several, len(labels))
			}
		}
		_ = quote(read)
	})
}

// readSeeds are messages of the shapes clients and relays send: plain,
// alternative, HTML only, charsets, transfer encodings, nesting at the
// limit, a delivery report.
func readSeeds() []string {
	h := "From: a@example.org\r\nTo: g-0-c-s@reply.example\r\nSubject: Re: your turn\r\nMessage-ID: <m@example.org>\r\nMIME-Version: 1.0\r\n"
	nest := h
	for i := range MaxDepth {
		nest += fmt.Sprintf("Content-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n--b%d\r\n", i, i)
	}
	nest += "Content-Type: text/plain\r\n\r\n1\r\n"
	return []string{
		h + "Content-Type: text/plain; charset=utf-8\r\n\r\n2\r\nchat: bien joué\r\n\r\nOn Mon, Ann wrote:\r\n> 1. Pass\r\n",
		h + "Content-Type: multipart/alternative; boundary=\"alt\"\r\n\r\n--alt\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nJ'ai jou=E9 3\r\n--alt\r\nContent-Type: text/html; charset=windows-1252\r\n\r\n<div>3</div><blockquote>1. Pass</blockquote>\r\n--alt--\r\n",
		h + "Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nPGRpdj5QYXNzPC9kaXY+PGRpdiBjbGFzcz0iZ21haWxfcXVvdGUiPjE8L2Rpdj4=\r\n",
		h + "Content-Type: text/plain; charset=shift_jis\r\n\r\n\x82\xa0 1\r\n",
		h + "Content-Type: text/plain; charset=x-unknown\r\n\r\n\xff\xfe1\r\n",
		h + "Content-Type: text/plain; charset=utf-7\r\n\r\n+AGEAYgBj-\r\n",
		h + "Content-Type: multipart/mixed; boundary*0=\"lo\"; boundary*1=\"ng\"\r\n\r\n--long\r\nContent-Type: text/plain\r\n\r\nPass\r\n--long\r\nContent-Type: message/rfc822\r\n\r\n" + h + "\r\nforwarded\r\n--long--\r\n",
		h + "Content-Type: multipart/report; report-type=delivery-status; boundary=\"r\"\r\n\r\n--r\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--r\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx\r\n\r\nAction: failed\r\nStatus: 5.1.1\r\n--r--\r\n",
		nest,
		h + "Content-Type: text/html\r\n\r\n" + strings.Repeat("<div><table><tr><td>", 50) + "1",
	}
}
