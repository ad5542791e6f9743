// Package migrations holds pbem's database schema as numbered golang-migrate
// files (NNNN_name.up.sql / .down.sql), embedded in the binary. The server
// applies them at start, `pbem migrate` on demand, and tests use the same files.
//
// Numbering: 0001 events, 0002 games and projections, 0003 notify (outbox,
// mail, deadlines), 0004 and later: whoever needs a new table, next number.
package migrations

import (
	"embed"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/golang-migrate/migrate/v4"
	_ "github.com/golang-migrate/migrate/v4/database/pgx/v5" // registers pgx5://
)

//go:embed *.sql
var files embed.FS

// newMigrate opens a migrator for databaseURL (postgres:// or postgresql://).
func newMigrate(databaseURL string) (*migrate.Migrate, error) {
	src, err := openFiles()
	if err != nil {
		return nil, fmt.Errorf("migrations: open embedded files: %w", err)
	}
	m, err := migrate.NewWithSourceInstance("iofs", src, driverURL(databaseURL))
	if err != nil {
		return nil, fmt.Errorf("migrations: connect: %w", err)
	}
	return m, nil
}

// driverURL turns a postgres:// URL into the pgx5:// form golang-migrate wants.
func driverURL(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return databaseURL
	}
	u.Scheme = "pgx5"
	return u.String()
}

// apply runs one golang-migrate operation on a fresh instance and closes
// it; "no change" is no error. up says which way op migrates, for
// retryLockConflicts.
func apply(databaseURL string, up bool, op func(*migrate.Migrate) error) error {
	m, err := newMigrate(databaseURL)
	if err != nil {
		return err
	}
	err = retryLockConflicts(m, up, op)
	if errors.Is(err, migrate.ErrNoChange) {
		err = nil
	}
	return closeMigrate(m, err)
}

func closeMigrate(m *migrate.Migrate, err error) error {
	srcErr, dbErr := m.Close()
	return errors.Join(err, srcErr, dbErr)
}

// Up applies every migration not yet applied. It is a no-op on an up-to-date database.
func Up(databaseURL string) error {
	return apply(databaseURL, true, func(m *migrate.Migrate) error { return m.Up() })
}

// To migrates up or down to version v (golang-migrate's Migrate). Tests use
// it to write a database as an older schema had it, then migrate it on.
func To(databaseURL string, v uint) error {
	from, _, err := Version(databaseURL)
	if err != nil {
		return err
	}
	return apply(databaseURL, v > from, func(m *migrate.Migrate) error { return m.Migrate(v) })
}

// Down reverts every migration, leaving an empty schema.
func Down(databaseURL string) error {
	return apply(databaseURL, false, func(m *migrate.Migrate) error { return m.Down() })
}

// Version reports the applied version (0 when none) and whether the last
// migration failed half-way (dirty).
func Version(databaseURL string) (uint, bool, error) {
	m, err := newMigrate(databaseURL)
	if err != nil {
		return 0, false, err
	}
	v, dirty, err := m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		v, dirty, err = 0, false, nil
	}
	return v, dirty, closeMigrate(m, err)
}

// Latest is the highest migration number embedded in this binary.
func Latest() (uint, error) {
	entries, err := files.ReadDir(".")
	if err != nil {
		return 0, err
	}
	var latest uint
	for _, e := range entries {
		var n uint
		if _, err := fmt.Sscanf(e.Name(), "%d_", &n); err == nil && strings.HasSuffix(e.Name(), ".up.sql") && n > latest {
			latest = n
		}
	}
	return latest, nil
}
