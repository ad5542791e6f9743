package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/notify"
)

// Mailbox is the dev mailbox table.
type Mailbox struct{ pool *pgxpool.Pool }

var _ notify.MailboxStore = (*Mailbox)(nil)

// NewMailbox returns a Mailbox on pool.
func NewMailbox(pool *pgxpool.Pool) *Mailbox { return &Mailbox{pool: pool} }

// Deliver implements notify.MailboxStore.
func (m *Mailbox) Deliver(ctx context.Context, s notify.StoredMail) error {
	h, err := json.Marshal(s.Headers)
	if err != nil {
		return fmt.Errorf("notify/postgres: mailbox headers: %w", err)
	}
	var outbox *int64
	if s.OutboxID > 0 {
		outbox = &s.OutboxID
	}
	_, err = m.pool.Exec(ctx, `INSERT INTO mailbox (outbox_id, message_id, from_addr, to_addr, subject, text_body, html_body, headers)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, outbox, s.MessageID, s.From, s.To, s.Subject, s.Text, s.HTML, h)
	if err != nil {
		return fmt.Errorf("notify/postgres: mailbox: %w", err)
	}
	return nil
}

// mailColumns are the columns a stored message is read from (scanMail).
const mailColumns = `id, coalesce(outbox_id, 0), message_id, from_addr, to_addr, subject, text_body, html_body, headers, created_at`

// scanMail reads a row of mailColumns.
func scanMail(r pgx.CollectableRow) (notify.StoredMail, error) {
	var s notify.StoredMail
	var h []byte
	if err := r.Scan(&s.ID, &s.OutboxID, &s.MessageID, &s.From, &s.To, &s.Subject, &s.Text, &s.HTML, &h, &s.CreatedAt); err != nil {
		return s, err
	}
	return s, json.Unmarshal(h, &s.Headers)
}

// List implements notify.MailboxStore.
func (m *Mailbox) List(ctx context.Context, limit int) ([]notify.StoredMail, error) {
	rows, err := m.pool.Query(ctx, `SELECT `+mailColumns+` FROM mailbox ORDER BY id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: mailbox list: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanMail)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: mailbox list: %w", err)
	}
	return out, nil
}

// Get implements notify.MailboxStore.
func (m *Mailbox) Get(ctx context.Context, id int64) (*notify.StoredMail, error) {
	rows, err := m.pool.Query(ctx, `SELECT `+mailColumns+` FROM mailbox WHERE id = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: mailbox message %d: %w", id, err)
	}
	s, err := pgx.CollectExactlyOneRow(rows, scanMail)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, notify.ErrNoMail
	}
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: mailbox message %d: %w", id, err)
	}
	return &s, nil
}
