package migrations

import "github.com/golang-migrate/migrate/v4"

// Steps applies n migrations up (n > 0) or reverts -n of them (n < 0),
// golang-migrate's Steps. Reverting more than are applied reverts them
// all and says so in its error (golang-migrate's ErrShortLimit).
func Steps(databaseURL string, n int) error {
	return apply(databaseURL, func(m *migrate.Migrate) error { return m.Steps(n) })
}
