// Package pgtest gives tests (and the benchmarks' runs) a fresh, migrated PostgreSQL database.
//
// It connects to PBEM_TEST_DATABASE_URL (which `make test` sets, through
// `pbem db exec`, to a server it found or started), else DATABASE_URL, else
// postgres://postgres@127.0.0.1:5432/postgres, creates a database with a
// unique name, applies the embedded migrations, and drops the database when
// the test ends.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
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
// dropped when tb ends.
func NewEmptyDB(tb testing.TB) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	u, drop, err := Scratch(ctx, AdminURL(), "pbem_test_", false)
	if err != nil {
		tb.Fatalf("pgtest: %v (run the tests with make test, which starts PostgreSQL, or set PBEM_TEST_DATABASE_URL)", err)
	}
	tb.Cleanup(func() {
		if err := drop(); err != nil {
			tb.Logf("pgtest: %v", err)
		}
	})
	return u
}

// Scratch creates a database named prefix plus random hex on the server of
// adminURL (a URL on which CREATE DATABASE may run), with every migration
// applied when migrate is set, for a test or a benchmark run (the load
// client, the page benchmark). It returns the database's URL and a function
// that drops it; the prefix makes databases left by an interrupted run easy
// to find.
func Scratch(ctx context.Context, adminURL, prefix string, migrate bool) (string, func() error, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("parse admin URL: %w", err)
	}
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("connect to %s: %w", redact(adminURL), err)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := pgx.Identifier{prefix + hex.EncodeToString(b)}
	_, err = admin.Exec(ctx, "CREATE DATABASE "+name.Sanitize())
	admin.Close(ctx)
	if err != nil {
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	drop := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, adminURL)
		if err != nil {
			return fmt.Errorf("drop %s: %w", name[0], err)
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+name.Sanitize()+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop %s: %w", name[0], err)
		}
		return nil
	}
	u.Path = "/" + name[0]
	if migrate {
		if err := migrations.Up(u.String()); err != nil {
			_ = drop()
			return "", nil, fmt.Errorf("migrate: %w", err)
		}
	}
	return u.String(), drop, nil
}

// NewDB creates a fresh database with every migration applied and returns
// its URL.
func NewDB(tb testing.TB) string {
	tb.Helper()
	u := NewEmptyDB(tb)
	if err := migrations.Up(u); err != nil {
		tb.Fatalf("pgtest: migrate: %v", err)
	}
	return u
}

// NewPool returns a pool on a fresh migrated database, closed when tb ends.
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
