package migrations

import (
	"errors"
	"os"

	"github.com/golang-migrate/migrate/v4"
)

// Steps applies n migrations up (n > 0) or reverts -n of them (n < 0),
// as golang-migrate's Steps. Reverting more than are applied reverts them
// all and says so in its error (golang-migrate's ErrShortLimit).
//
// The steps are counted from the version at the call and turned into a
// target version, so that a step PostgreSQL rolled back for a lock
// conflict, run again, does not move the count on (retryLockConflicts).
func Steps(databaseURL string, n int) error {
	from, _, err := Version(databaseURL)
	if err != nil {
		return err
	}
	src, err := openFiles()
	if err != nil {
		return err
	}
	defer src.Close()
	target, left := int(from), n
	if from == 0 {
		target = -1
	}
	for ; left != 0; left -= sign(left) {
		next, err := neighbour(src, target, left > 0)
		if errors.Is(err, os.ErrNotExist) {
			break
		}
		if err != nil {
			return err
		}
		target = next
	}
	switch {
	case target < 0:
		err = Down(databaseURL)
	case target != int(from):
		err = To(databaseURL, uint(target))
	}
	if err == nil && left != 0 {
		err = migrate.ErrShortLimit{Short: uint(sign(left) * left)}
	}
	return err
}

func sign(n int) int {
	if n < 0 {
		return -1
	}
	return 1
}
