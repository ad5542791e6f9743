package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"pbem/migrations"
)

// SkipOnCitus skips tb when its databases are Citus's (PBEM_TEST_CITUS):
// for a test of one server's storage, which on Citus holds none of the
// distributed tables' rows (they live in shards on the workers): its heap
// pages or WAL (pageinspect, pg_walinspect), or a pg_dump restored into
// it. does says what the test does, as "reads the outbox's WAL".
func SkipOnCitus(tb testing.TB, does string) {
	tb.Helper()
	if citusWorkers() != nil {
		tb.Skipf("on Citus the tables' rows are in shards on the workers: this test %s on one server", does)
	}
}

// citusWorkers returns the admin URLs of the Citus workers named by
// PBEM_TEST_CITUS (comma-separated, `bench/citus/cluster.sh workers`), or
// nil when it is unset: then the tests run on plain PostgreSQL. With it,
// PBEM_TEST_DATABASE_URL names the coordinator (`make test-citus`).
func citusWorkers() []string {
	v := strings.TrimSpace(os.Getenv("PBEM_TEST_CITUS"))
	if v == "" {
		return nil
	}
	return strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' })
}

// createCitusDB creates database name on the coordinator of adminURL and on
// every worker, with the citus extension in each, adds the workers to the
// coordinator's metadata, applies every migration and then
// migrations.CitusDistribute, as an operator does once (docs/SCALING.md).
// It returns a function that drops the database on every node.
func createCitusDB(ctx context.Context, adminURL, name string, workers []string) (func() error, error) {
	nodes := append([]string{adminURL}, workers...)
	drop := func() error {
		var errs []error
		for _, n := range nodes {
			if err := execAdmin(context.Background(), n, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
				errs = append(errs, fmt.Errorf("drop %s on %s: %w", name, redact(n), err))
			}
		}
		return errors.Join(errs...)
	}
	for _, n := range nodes {
		if err := execAdmin(ctx, n, "CREATE DATABASE "+ident(name)); err != nil {
			_ = drop()
			return nil, fmt.Errorf("create database on %s: %w", redact(n), err)
		}
		if err := execAdmin(ctx, withDatabase(n, name), "CREATE EXTENSION citus"); err != nil {
			_ = drop()
			return nil, fmt.Errorf("citus on %s: %w", redact(n), err)
		}
	}
	coord := withDatabase(adminURL, name)
	// Adding a node writes the roles on every worker (they are global to
	// a server): two databases adding their nodes at once fail with "tuple
	// concurrently updated". One at a time, under a lock on the admin
	// database (advisory locks are per database).
	lock, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		_ = drop()
		return nil, fmt.Errorf("connect to %s: %w", redact(adminURL), err)
	}
	defer lock.Close(context.Background())
	if _, err := lock.Exec(ctx, "SELECT pg_advisory_lock($1)", citusLockKey); err != nil {
		_ = drop()
		return nil, fmt.Errorf("citus lock: %w", err)
	}
	host, port, err := hostPort(adminURL)
	if err == nil {
		err = execAdmin(ctx, coord, fmt.Sprintf("SELECT citus_set_coordinator_host(%s, %s)", literal(host), port))
	}
	for _, w := range workers {
		if err != nil {
			break
		}
		var h, p string
		if h, p, err = hostPort(w); err == nil {
			err = execAdmin(ctx, coord, fmt.Sprintf("SELECT citus_add_node(%s, %s)", literal(h), p))
		}
	}
	if _, uerr := lock.Exec(ctx, "SELECT pg_advisory_unlock($1)", citusLockKey); err == nil && uerr != nil {
		err = fmt.Errorf("citus unlock: %w", uerr)
	}
	if err == nil {
		if err = migrations.Up(coord); err != nil {
			err = fmt.Errorf("migrate: %w", err)
		}
	}
	if err == nil {
		if err = execAdmin(ctx, coord, migrations.CitusDistribute); err != nil {
			err = fmt.Errorf("distribute: %w", err)
		}
	}
	if err != nil {
		_ = drop()
		return nil, fmt.Errorf("citus database %s: %w", name, err)
	}
	return drop, nil
}

// citusLockKey is the advisory lock under which a test database adds its
// Citus nodes.
const citusLockKey = 47_000_047

// hostPort returns the host and port (5432 when absent) of a URL.
func hostPort(rawURL string) (string, string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", "", err
	}
	port := u.Port()
	if port == "" {
		port = "5432"
	}
	return u.Hostname(), port, nil
}
