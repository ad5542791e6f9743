package migrations_test

import (
	"errors"
	"testing"

	"github.com/golang-migrate/migrate/v4"

	"pbem/events/postgres/pgtest"
	"pbem/migrations"
)

// TestStepsCountFiles: Steps counts migration files, not version numbers
// (0007 is followed by 0010), from the empty schema up and back to it;
// reverting more than are applied reverts them all and says how many
// were short.
func TestStepsCountFiles(t *testing.T) {
	t.Parallel()
	url := pgtest.NewEmptyDB(t)
	for _, step := range []struct {
		n     int
		want  uint
		short uint
	}{
		{1, 1, 0},
		{8, 20, 0},
		{-2, 7, 0},
		{3, 30, 0},
		{-9, 1, 0},
		{-3, 0, 2},
		{2, 2, 0},
	} {
		err := migrations.Steps(url, step.n)
		var short migrate.ErrShortLimit
		switch {
		case step.short == 0 && err != nil:
			t.Fatalf("Steps(%d): %v", step.n, err)
		case step.short != 0 && (!errors.As(err, &short) || short.Short != step.short):
			t.Fatalf("Steps(%d): %v, want %d short", step.n, err, step.short)
		}
		if v, dirty, err := migrations.Version(url); err != nil || v != step.want || dirty {
			t.Fatalf("Steps(%d): version %d dirty %v (%v), want %d", step.n, v, dirty, err, step.want)
		}
	}
}
