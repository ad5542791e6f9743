package migrations

import (
	"errors"
	"os"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	"github.com/golang-migrate/migrate/v4/source"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5/pgconn"
)

// lockAttempts bounds how often one operation runs when PostgreSQL keeps
// giving its migrations up for their locks.
const lockAttempts = 5

// retryLockConflicts runs op, and again while a migration fails for a
// lock: a deadlock with another session (a running server's transaction
// holding one table a migration needs while waiting for another the
// migration holds) or a lock_timeout. Each file runs as one statement
// string, which PostgreSQL runs as one transaction, so such a migration
// left nothing behind; golang-migrate has marked its version dirty all
// the same, and that would stop every server of this database (its schema
// watch answers 503 on a dirty schema) until an operator forced it. The
// version goes back to the one before the failed migration, and op runs
// again. up says which way op migrates.
func retryLockConflicts(m *migrate.Migrate, up bool, op func(*migrate.Migrate) error) error {
	var err error
	for range lockAttempts {
		if err = op(m); !lockConflict(err) {
			return err
		}
		if undoErr := undoDirty(m, up); undoErr != nil {
			return errors.Join(err, undoErr)
		}
	}
	return err
}

// lockConflict reports whether err is a migration PostgreSQL gave up for
// a lock: deadlock_detected or lock_not_available.
func lockConflict(err error) bool {
	var run database.Error
	if !errors.As(err, &run) {
		return false
	}
	var pg *pgconn.PgError
	return errors.As(run.OrigErr, &pg) && (pg.Code == pgerrcode.DeadlockDetected || pg.Code == pgerrcode.LockNotAvailable)
}

// undoDirty sets the version back to the one before the migration that
// failed, when golang-migrate left it dirty. Going up, the dirty version
// is the failed migration's own; going down, it is the one the failed
// migration was reverting to.
func undoDirty(m *migrate.Migrate, up bool) error {
	v, dirty, err := m.Version()
	switch {
	case errors.Is(err, migrate.ErrNilVersion) && !up:
		// Reverting the first migration: golang-migrate records the
		// empty version as dirty, and Version reports no version.
		v, dirty = 0, true
		err = nil
	case errors.Is(err, migrate.ErrNilVersion):
		return nil
	}
	if err != nil || !dirty {
		return err
	}
	src, err := openFiles()
	if err != nil {
		return err
	}
	defer src.Close()
	at := int(v)
	if at == 0 {
		at = -1
	}
	before, err := neighbour(src, at, !up)
	if err != nil {
		return err
	}
	return m.Force(before)
}

// openFiles opens the embedded migration files.
func openFiles() (source.Driver, error) {
	return iofs.New(files, ".")
}

// neighbour is the version one migration up or down from v among the
// files, where -1 is the empty schema: down from the first migration is
// -1, and nothing is down from -1 or up from the last (os.ErrNotExist).
func neighbour(src source.Driver, v int, up bool) (int, error) {
	var next uint
	var err error
	switch {
	case up && v < 0:
		next, err = src.First()
	case up:
		next, err = src.Next(uint(v))
	case v < 0:
		return 0, os.ErrNotExist
	default:
		next, err = src.Prev(uint(v))
		if errors.Is(err, os.ErrNotExist) {
			return -1, nil
		}
	}
	return int(next), err
}
