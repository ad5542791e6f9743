package postgres

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/notify"
)

// Prefs keeps mail preferences in mail_prefs.
type Prefs struct{ pool *pgxpool.Pool }

var _ notify.PrefStore = (*Prefs)(nil)

// NewPrefs returns a Prefs on pool.
func NewPrefs(pool *pgxpool.Pool) *Prefs { return &Prefs{pool: pool} }

// Modes implements notify.PrefStore.
func (p *Prefs) Modes(ctx context.Context, emails []string) (map[string]notify.Mode, error) {
	lower := make([]string, len(emails))
	for i, e := range emails {
		lower[i] = strings.ToLower(e)
	}
	rows, err := p.pool.Query(ctx, `SELECT email, mode FROM mail_prefs WHERE email = ANY($1)`, lower)
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: mail prefs: %w", err)
	}
	defer rows.Close()
	out := map[string]notify.Mode{}
	for rows.Next() {
		var e, m string
		if err := rows.Scan(&e, &m); err != nil {
			return nil, fmt.Errorf("notify/postgres: mail prefs: %w", err)
		}
		out[e] = notify.Mode(m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("notify/postgres: mail prefs: %w", err)
	}
	return out, nil
}

// SetMode implements notify.PrefStore.
func (p *Prefs) SetMode(ctx context.Context, email string, m notify.Mode) error {
	if _, err := notify.ParseMode(string(m)); err != nil {
		return err
	}
	_, err := p.pool.Exec(ctx, `INSERT INTO mail_prefs (email, mode, updated_at) VALUES ($1, $2, now())
ON CONFLICT (email) DO UPDATE SET mode = excluded.mode, updated_at = excluded.updated_at`,
		strings.ToLower(strings.TrimSpace(email)), string(m))
	if err != nil {
		return fmt.Errorf("notify/postgres: set mail pref: %w", err)
	}
	return nil
}
