// Package pgtest gives tests a fresh, migrated PostgreSQL database.
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
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		tb.Fatalf("pgtest: connect to %s: %v (run the tests with make test, which starts PostgreSQL, or set PBEM_TEST_DATABASE_URL)", redact(AdminURL()), err)
	}
	defer admin.Close(ctx)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "pbem_test_" + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("pgtest: create database: %v", err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, AdminURL())
		if err != nil {
			tb.Logf("pgtest: drop %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Logf("pgtest: drop %s: %v", name, err)
		}
	})
	u, err := url.Parse(AdminURL())
	if err != nil {
		tb.Fatalf("pgtest: parse admin URL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
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
