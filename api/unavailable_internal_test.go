package api

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/postgres/pgtest"
)

// TestOutageKinds classifies errors that a real PostgreSQL and the real
// driver give: outages are unavailable (503), the rest is not.
func TestOutageKinds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := pgtest.NewDB(t)
	conn := func() *pgx.Conn {
		c, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(ctx) })
		return c
	}

	outages := map[string]func() error{}
	outages["read-only transaction"] = func() error {
		c := conn()
		if _, err := c.Exec(ctx, "SET default_transaction_read_only = on"); err != nil {
			t.Fatal(err)
		}
		_, err := c.Exec(ctx, "CREATE TABLE ro (x int)")
		return err
	}
	outages["admin shutdown"] = func() error {
		victim, admin := conn(), conn()
		// pg_terminate_backend waits (up to its timeout) until the
		// backend has exited, so the victim's next statement finds its
		// connection closed by the administrator.
		var gone bool
		if err := admin.QueryRow(ctx, "SELECT pg_terminate_backend($1, 60000)", victim.PgConn().PID()).Scan(&gone); err != nil || !gone {
			t.Fatalf("terminate the victim's backend: %v, %v", gone, err)
		}
		_, err := victim.Exec(ctx, "SELECT 1")
		return err
	}
	outages["connection refused"] = func() error {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		_, err = pgx.Connect(ctx, "postgres://postgres@"+addr+"/x?connect_timeout=2")
		return err
	}
	outages["pool exhausted"] = func() error {
		cfg, err := pgxpool.ParseConfig(dbURL)
		if err != nil {
			t.Fatal(err)
		}
		cfg.MaxConns = 1
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer pool.Close()
		held, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer held.Release()
		actx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		_, err = pool.Exec(actx, "SELECT 1")
		return err
	}
	outages["lock not available"] = func() error {
		// A session holds a table, as a migration running under the
		// server does; a request's statement gives up waiting for it.
		holder, waiter := conn(), conn()
		tx, err := holder.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, "LOCK TABLE games IN ACCESS EXCLUSIVE MODE"); err != nil {
			t.Fatal(err)
		}
		if _, err := waiter.Exec(ctx, "SET lock_timeout = '10ms'"); err != nil {
			t.Fatal(err)
		}
		_, err = waiter.Exec(ctx, "SELECT count(*) FROM games")
		return err
	}
	for name, f := range outages {
		err := f()
		if err == nil || !unavailable(err) {
			t.Errorf("%s: %v is not an outage", name, err)
		}
	}

	c := conn()
	for name, sql := range map[string]string{
		"syntax error":      "SELEC 1",
		"unique violation":  "CREATE TEMP TABLE u (x int PRIMARY KEY); INSERT INTO u VALUES (1), (1)",
		"division by zero":  "SELECT 1/0",
		"NUL in text":       "SELECT convert_from('\\x00'::bytea, 'UTF8')",
		"no such table":     "SELECT * FROM nowhere",
		"invalid json text": "SELECT '{'::jsonb",
	} {
		_, err := c.Exec(ctx, sql)
		if err == nil || unavailable(err) {
			t.Errorf("%s: %v counted as an outage", name, err)
		}
	}
	if unavailable(errors.New("a bug")) || unavailable(nil) {
		t.Error("a plain error counted as an outage")
	}
}
