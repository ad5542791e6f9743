package notify

import (
	"context"
	"errors"
	"log/slog"
	"net/mail"
	"time"
)

// StoredMail is a message kept in the dev mailbox.
type StoredMail struct {
	ID        int64     `json:"id"`
	OutboxID  int64     `json:"outbox_id"`
	MessageID string    `json:"message_id"`
	From      string    `json:"from"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	Text      string    `json:"text"`
	HTML      string    `json:"html"`
	Headers   Headers   `json:"headers"`
	CreatedAt time.Time `json:"created_at"`
}

// Headers are the mail headers the dev mailbox keeps (name: value).
type Headers map[string]string

// MailboxStore keeps the dev mailbox. notify/postgres.Mailbox implements it.
type MailboxStore interface {
	// Deliver stores a message.
	Deliver(ctx context.Context, m StoredMail) error
	// List returns the newest limit messages, newest first.
	List(ctx context.Context, limit int) ([]StoredMail, error)
	// Get returns the message of id; ErrNoMail if there is none.
	Get(ctx context.Context, id int64) (*StoredMail, error)
}

// ErrNoMail is the error of a message the dev mailbox does not hold.
var ErrNoMail = errors.New("notify: the dev mailbox holds no such message")

// DevMailbox is the Sender used when no PBEM_SMTP_URL is configured: it
// keeps messages in the database (shown at /dev/mail) and logs one line
// per message, without the link (a token never reaches a log).
type DevMailbox struct {
	store MailboxStore
	log   *slog.Logger
}

var _ Sender = (*DevMailbox)(nil)

// NewDevMailbox returns a DevMailbox; log nil means slog.Default().
func NewDevMailbox(store MailboxStore, log *slog.Logger) *DevMailbox {
	if log == nil {
		log = slog.Default()
	}
	return &DevMailbox{store: store, log: log}
}

// Send implements Sender.
func (d *DevMailbox) Send(ctx context.Context, msgs []*Message) []error {
	errs := make([]error, len(msgs))
	for i, m := range msgs {
		sm := StoredMail{
			OutboxID: m.OutboxID, MessageID: m.MessageID, From: m.From, To: m.To,
			Subject: m.Subject, Text: m.Text, HTML: m.HTML, Headers: m.headers(),
		}
		if errs[i] = d.store.Deliver(ctx, sm); errs[i] != nil {
			continue
		}
		d.log.Info("dev mail", "to", m.To, "subject", m.Subject, "kind", m.Kind, "game", m.GameID,
			"message_id", m.MessageID, "see", "/dev/mail")
	}
	return errs
}

// headers lists the headers an SMTP send would set beyond From/To/Subject.
func (m *Message) headers() Headers {
	h := Headers{"Message-ID": "<" + m.MessageID + ">", "Content-Language": m.Language}
	if m.ToName != "" {
		h["To"] = (&mail.Address{Name: m.ToName, Address: m.To}).String()
	}
	if m.ReplyTo != "" {
		h["Reply-To"] = m.ReplyTo
	}
	if m.InReplyTo != "" {
		h["In-Reply-To"] = m.InReplyTo
	}
	if m.References != "" {
		h["References"] = m.References
	}
	if m.Bulk {
		h["Precedence"] = "bulk"
	}
	if m.Unsubscribe != "" {
		h["List-Unsubscribe"] = "<" + m.Unsubscribe + ">"
		h["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
	}
	return h
}
