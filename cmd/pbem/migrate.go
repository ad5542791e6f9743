package main

import (
	"context"
	"fmt"

	"pbem/migrations"
)

// migrateCmd is `pbem migrate up|down|version`, on the database serve
// would use (see openDatabase). down reverts every migration: it drops all
// of pbem's tables and their data.
func migrateCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "migrate")
	fs.Usage = func() { fmt.Fprintln(e.stderr, "usage: pbem migrate up|down|version") }
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitError{2}
	}
	action := fs.Arg(0)
	if action != "up" && action != "down" && action != "version" {
		fs.Usage()
		return exitError{2}
	}
	db, err := openDatabase(ctx, e)
	if err != nil {
		return err
	}
	defer db.Close()
	switch action {
	case "up":
		err = migrations.Up(db.URL)
	case "down":
		err = migrations.Down(db.URL)
	}
	if err != nil {
		return err
	}
	v, dirty, err := migrations.Version(db.URL)
	if err != nil {
		return err
	}
	latest, err := migrations.Latest()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "version %d (latest %d)", v, latest)
	if dirty {
		fmt.Fprint(e.stdout, ", dirty: a migration failed half-way")
	}
	fmt.Fprintln(e.stdout)
	return nil
}
