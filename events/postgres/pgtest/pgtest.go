// Package pgtest gives tests (and the benchmarks' runs) a fresh, migrated PostgreSQL database.
//
// It connects to PBEM_TEST_DATABASE_URL (which `make test` sets, through
// `pbem db exec`, to a server it found or started), else DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/postgres, creates a database with a
// unique name as a copy of a template database migrated once for this set
// of migrations (template.go), and drops the database when the test ends.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/migrations"
)

// AdminURL is the server URL tests create their databases from.
func AdminURL() string {
	for _, k := range []string{"PBEM_TEST_DATABASE_URL", "DATABASE_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// NewEmptyDB creates a fresh empty database and returns its URL. It is
// dropped when tb ends. Tests of the migrations themselves start from it.
func NewEmptyDB(tb testing.TB) string {
	tb.Helper()
	return newDB(tb, false)
}

// NewDB creates a fresh database with every migration applied and returns
// its URL. It is a copy of a template database that holds them (see
// template.go), migrated once per set of migrations, not once per test.
// It is dropped when tb ends.
func NewDB(tb testing.TB) string {
	tb.Helper()
	return newDB(tb, true)
}

// newDB creates a test's database, empty or from the template.
func newDB(tb testing.TB, fromTemplate bool) string {
	tb.Helper()
	// Long enough for the template's build, or the wait for another
	// binary's, on a loaded machine; a copy takes well under a second.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	u, drop, err := create(ctx, AdminURL(), "pbem_test_", fromTemplate)
	if err != nil {
		tb.Fatalf("pgtest: %v (run the tests with make test, which starts PostgreSQL, or set PBEM_TEST_DATABASE_URL)", err)
	}
	tb.Cleanup(func() {
		if err := drop(); err != nil {
			tb.Logf("pgtest: %v", err)
		}
	})
	if err := asyncCommits(ctx, u); err != nil {
		tb.Fatalf("pgtest: %v", err)
	}
	return u
}

// asyncCommits makes the commits of database u's sessions not wait for
// the WAL's flush (synchronous_commit = off, a setting of the database
// that every later session takes), as on the cluster make test starts
// (pgcluster.NoFsync), when the server it found runs with fsync: a
// commit there waited for the disk (13 ms against 1.4 ms for a
// one-row INSERT under load 16, pgbench -t 300), most of the wall time
// of the tests that play whole games through the service. A commit's
// changes are seen by every session as soon as it returns either way;
// only a crash of the server could lose the last ones, and no test
// crashes the server it shares (the crash tests use clusters of their
// own; pgtest.FlushedLSN flushes with synchronous_commit on). Scratch
// (benchmarks) keeps the server's setting.
func asyncCommits(ctx context.Context, u string) error {
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("parse database URL: %w", err)
	}
	sql := "ALTER DATABASE " + ident(strings.TrimPrefix(p.Path, "/")) + " SET synchronous_commit = off"
	if err := execAdmin(ctx, AdminURL(), sql); err != nil {
		return fmt.Errorf("synchronous_commit: %w", err)
	}
	return nil
}

// Scratch creates a database named prefix plus random hex on the server of
// adminURL (a URL on which CREATE DATABASE may run), with every migration
// applied when migrate is set, for a test or a benchmark run (the load
// client, the page benchmark). It returns the database's URL and a function
// that drops it; the prefix makes databases left by an interrupted run easy
// to find. It runs the migrations itself and leaves no template behind on
// the server.
func Scratch(ctx context.Context, adminURL, prefix string, migrate bool) (string, func() error, error) {
	u, drop, err := create(ctx, adminURL, prefix, false)
	if err != nil {
		return "", nil, err
	}
	if migrate {
		if err := migrations.Up(u); err != nil {
			_ = drop()
			return "", nil, fmt.Errorf("migrate: %w", err)
		}
	}
	return u, drop, nil
}

// create creates a database named prefix plus random hex, empty or as a
// copy of the template, and returns its URL and a function that drops it.
func create(ctx context.Context, adminURL, prefix string, fromTemplate bool) (string, func() error, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("parse admin URL: %w", err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := prefix + hex.EncodeToString(b)
	if workers := citusWorkers(); fromTemplate && workers != nil {
		drop, err := createCitusDB(ctx, adminURL, name, workers)
		if err != nil {
			return "", nil, err
		}
		u.Path = "/" + name
		return u.String(), drop, nil
	}
	if fromTemplate {
		err = cloneDB(ctx, adminURL, name)
	} else if err = execAdmin(ctx, adminURL, "CREATE DATABASE "+ident(name)); err != nil {
		err = fmt.Errorf("create database: %w", err)
	}
	if err != nil {
		return "", nil, err
	}
	drop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := execAdmin(ctx, adminURL, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop %s: %w", name, err)
		}
		return nil
	}
	u.Path = "/" + name
	return u.String(), drop, nil
}

// NewPool returns a pool on a fresh migrated database (NewDB), closed when tb ends.
func NewPool(tb testing.TB) *pgxpool.Pool {
	tb.Helper()
	u := NewDB(tb)
	pool, err := pgxpool.New(context.Background(), u)
	if err != nil {
		tb.Fatalf("pgtest: pool: %v", err)
	}
	tb.Cleanup(pool.Close)
	return pool
}

func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
