package inbound

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"
)

// A message's MIME structure is checked before it is parsed: a reply
// holds a few parts (text, HTML, an image or two, a forwarded message),
// two or three levels deep. Anything far beyond is refused unread, because
// the MIME reader's cost grows much faster than the message's size with
// nesting (24,000 levels in 1.7 MB took minutes).
const (
	// MaxDepth bounds the nesting of multipart parts in a message (the
	// top-level multipart counts as one).
	MaxDepth = 10
	// MaxMIMEParts bounds the parts of a message, containers included.
	MaxMIMEParts = 200
)

// maxBoundary bounds a multipart boundary's length (RFC 2046 allows 70
// characters), so that every boundary line fits the scan's buffer.
const maxBoundary = 200

// ShapeError is a message refused for its structure (SMTP 554 5.6.0): it
// is never parsed, played or answered.
type ShapeError struct{ Reason string }

func (e *ShapeError) Error() string { return e.Reason }

// errReadDeadline is returned by readLetter when reading a message took
// longer than its deadline.
var errReadDeadline = errors.New("inbound: the message took too long to read")

// checkShape scans raw's MIME structure in one pass, the way the MIME
// reader will walk it (the same header and Content-Type parsing; only
// multipart parts are entered), and refuses a message nested deeper than
// MaxDepth or with more than MaxMIMEParts parts. Its cost is linear in the
// message's size: each line is compared with at most MaxDepth boundaries.
func checkShape(raw []byte) error {
	br := bufio.NewReader(bytes.NewReader(raw))
	var open []string // the "--boundary" lines of the multiparts entered
	parts := 0
	enter := func() error {
		h, err := textproto.ReadHeader(br)
		if err != nil {
			return nil // the reader will stop here too: nothing deeper is parsed
		}
		mh := message.Header{Header: h}
		mt, params, _ := mh.ContentType()
		if !strings.HasPrefix(mt, "multipart/") {
			return nil
		}
		b := params["boundary"]
		if len(b) > maxBoundary {
			return &ShapeError{Reason: fmt.Sprintf("message refused: a multipart boundary longer than %d characters", maxBoundary)}
		}
		if len(open) == MaxDepth {
			return &ShapeError{Reason: fmt.Sprintf("message refused: multipart parts nested more than %d deep", MaxDepth)}
		}
		open = append(open, "--"+b)
		return nil
	}
	if err := enter(); err != nil {
		return err
	}
	for len(open) > 0 {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			for errors.Is(err, bufio.ErrBufferFull) { // a long line is no boundary
				_, err = br.ReadSlice('\n')
			}
			continue
		}
		if err != nil && len(line) == 0 {
			return nil // io.EOF: the end, whatever is left open
		}
		if !bytes.HasPrefix(line, []byte("--")) {
			continue
		}
		l := string(bytes.TrimRight(line, " \t\r\n"))
		for i := len(open) - 1; i >= 0; i-- {
			if l == open[i]+"--" { // the end of multipart i (and of those in it)
				open = open[:i]
				break
			}
			if l == open[i] { // a new part of multipart i
				open = open[:i+1]
				if parts++; parts > MaxMIMEParts {
					return &ShapeError{Reason: fmt.Sprintf("message refused: more than %d MIME parts", MaxMIMEParts)}
				}
				if err := enter(); err != nil {
					return err
				}
				break
			}
		}
		if err == io.EOF {
			return nil
		}
	}
	return nil
}

// deadlineReader reads r until a deadline, then fails: the MIME and HTML
// readers pull the message through it, so they stop at the deadline
// whatever the message holds.
type deadlineReader struct {
	r       io.Reader
	at      time.Time
	now     func() time.Time
	expired bool
}

func (d *deadlineReader) Read(p []byte) (int, error) {
	if d.expired || d.now().After(d.at) {
		d.expired = true
		return 0, errReadDeadline
	}
	return d.r.Read(p)
}
