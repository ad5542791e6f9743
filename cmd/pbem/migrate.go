package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"pbem/migrations"
)

// migrateUsage is the usage line of `pbem migrate`.
const migrateUsage = `usage: pbem migrate up | down N | down --all | version
  down N      revert the last N migrations (each may drop tables and their data)
  down --all  revert every migration: drops all of pbem's tables and their data`

// migrateCmd is `pbem migrate up|down N|down --all|version`, on the
// database serve would use (see openDatabase). down reverts N migrations,
// or every one with --all (it drops all of pbem's tables and their data);
// it refuses while a pbem server is connected to the database (serving
// reports itself as servingAppName).
func migrateCmd(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "migrate")
	fs.Usage = func() { fmt.Fprintln(e.stderr, migrateUsage) }
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return exitError{2}
	}
	action, rest := fs.Arg(0), fs.Args()[1:]
	steps := 0 // for down: how many; -1: all
	switch action {
	case "up", "version":
		if len(rest) > 0 {
			fs.Usage()
			return exitError{2}
		}
	case "down":
		var err error
		if steps, err = downSteps(rest); err != nil {
			fmt.Fprintf(e.stderr, "pbem migrate down: %v\n%s\n", err, migrateUsage)
			return exitError{2}
		}
	default:
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
		if err = refuseWhileServing(ctx, db.URL); err != nil {
			return err
		}
		if steps < 0 {
			err = migrations.Down(db.URL)
		} else {
			err = migrations.Steps(db.URL, -steps)
		}
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

// downSteps reads the arguments of `migrate down`: a positive step count,
// or --all (returned as -1). Nothing at all is refused: reverting every
// migration drops every table, and must be asked for by name.
func downSteps(args []string) (int, error) {
	if len(args) != 1 {
		return 0, errors.New("give how many migrations to revert (e.g. 1), or --all to revert every one (drops all tables and their data)")
	}
	if args[0] == "--all" || args[0] == "-all" {
		return -1, nil
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a number of migrations (1 or more), nor --all", args[0])
	}
	return n, nil
}

// servingAppName is the application_name of serve's connections: `pbem
// migrate down` looks for it among the database's sessions.
const servingAppName = "pbem serve"

// refuseWhileServing is an error naming the pbem servers connected to
// the database at url (pg_stat_activity), nil when there are none.
func refuseWhileServing(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT DISTINCT coalesce(host(client_addr), 'local socket') FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid() ORDER BY 1`, servingAppName)
	if err != nil {
		return fmt.Errorf("look for running servers: %w", err)
	}
	hosts, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("look for running servers: %w", err)
	}
	if len(hosts) > 0 {
		return fmt.Errorf("pbem servers are connected to this database (from %s): stop them first, then migrate down", strings.Join(hosts, ", "))
	}
	return nil
}
