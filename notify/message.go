package notify

import (
	"context"
	"errors"
	"pbem/projections/outbox"
)

// Message is a rendered email, ready for a Sender.
type Message struct {
	// From is the From address with its display name, as net/mail's
	// Address writes it ("\"pbem\" <pbem@games.example.org>").
	From     string
	To       string
	ToName   string
	Subject  string
	Text     string
	HTML     string
	Language string
	// MessageID is the Message-ID without angle brackets; fixed per
	// outbox row so that a resend after a crash is recognisable.
	MessageID string
	// Unsubscribe is the https one-click unsubscribe URL (List-Unsubscribe
	// with List-Unsubscribe-Post), or empty for none; Bulk adds
	// Precedence: bulk. Both are set on the kinds Kind.Bulk names only.
	Unsubscribe string
	Bulk        bool
	// Kind and GameID say what the message is about, for logs.
	Kind   outbox.Kind
	GameID string
	// OutboxID is the outbox row the message was rendered from (0: none).
	OutboxID int64
	// ReplyTo is the seat's reply address (empty: no reply domain). It is
	// also the envelope sender, so that bounces reach the mail listener.
	ReplyTo string
	// InReplyTo is the Message-ID (with brackets) this message answers.
	InReplyTo string
	// References is the References field: Message-IDs with brackets,
	// separated by spaces, the thread's root first (empty: none). See
	// Renderer.ThreadID.
	References string
}

// Sender delivers messages. Send returns one error per message, in order
// (nil: accepted by the next hop); one connection-level failure is
// reported as the same error for every message not sent.
type Sender interface {
	Send(ctx context.Context, msgs []*Message) []error
}

// StreamSender is a Sender that reports each message's outcome as soon as
// it is known, so that the worker records it before sending the next one.
// SendEach calls report(i, err) once per message, in order (err nil: the
// next hop accepted it), and stops sending when report returns false.
type StreamSender interface {
	Sender
	SendEach(ctx context.Context, msgs []*Message, report func(i int, err error) bool)
}

// PermanentError marks a delivery error that retrying will not cure (an
// SMTP 5xx reply, a malformed payload): the row fails at once.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *PermanentError) Unwrap() error { return e.Err }

// IsPermanent reports whether err (or an error it wraps) is a PermanentError.
func IsPermanent(err error) bool {
	var p *PermanentError
	return errors.As(err, &p)
}
