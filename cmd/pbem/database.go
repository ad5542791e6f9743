package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/cmd/internal/pgcluster"
	"pbem/migrations"
)

// databaseName is the database pbem uses on a server it found or started
// (with DATABASE_URL, the URL names the database).
const databaseName = "pbem"

// database is the server's database, opened by openDatabase.
type database struct {
	// URL is the database's URL.
	URL string
	// Source says where the server came from (for the log).
	Source string
	srv    *pgcluster.Database
	// appName, if set, is the application_name of the pool's sessions
	// (serve's: servingAppName).
	appName string
}

// openDatabase finds or starts the PostgreSQL server (pgcluster.Open: DATABASE_URL,
// 127.0.0.1:5432, private cluster in the data folder) and makes sure the
// pbem database exists. Close stops a private cluster it started.
func openDatabase(ctx context.Context, e *env) (*database, error) {
	srv, err := pgcluster.Open(ctx, pgcluster.Options{
		DatabaseURL: e.cfg.DatabaseURL,
		DataDir:     e.cfg.DataDir,
		Install:     true,
		Log:         logWriter{e},
	})
	if err != nil {
		return nil, err
	}
	db := &database{Source: srv.Source, srv: srv}
	if err := srv.CreateDatabase(ctx, databaseName); err != nil {
		_ = db.Close()
		return nil, err
	}
	if db.URL, err = srv.URL(databaseName); err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

// Close stops the private cluster if openDatabase started it.
func (d *database) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	return d.srv.Close(ctx)
}

// migrate applies every migration, then checks the result. A schema ahead
// of this binary's migrations (not dirty) is left alone: it is the next
// release's, which keeps this one's queries working (migrations/README.md:
// expand, then contract), as when the previous release restarts during an
// upgrade.
func (d *database) migrate() error {
	latest, err := migrations.Latest()
	if err != nil {
		return err
	}
	if v, dirty, err := migrations.Version(d.URL); err == nil && !dirty && v > latest {
		return nil
	}
	if err := migrations.Up(d.URL); err != nil {
		return err
	}
	v, dirty, err := migrations.Version(d.URL)
	if err != nil {
		return err
	}
	if dirty || v < latest {
		return fmt.Errorf("database at migration %d (dirty %v), want %d", v, dirty, latest)
	}
	return nil
}

// pool opens a connection pool on the database. Unless the URL says
// otherwise (pool_max_conns), it allows more connections than pgxpool's
// default of max(4, CPUs): requests, workers and the event listener share it.
func (d *database) pool(ctx context.Context) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(d.URL)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	if !strings.Contains(d.URL, "pool_max_conns") && cfg.MaxConns < 16 {
		cfg.MaxConns = 16
	}
	if d.appName != "" {
		cfg.ConnConfig.RuntimeParams["application_name"] = d.appName
		// Keep a session open while idle, so that `pbem migrate down`
		// sees this server.
		cfg.MinConns = max(cfg.MinConns, 1)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open pool: %w", err)
	}
	return pool, nil
}

// logWriter sends the pgcluster package's progress lines to the logger.
type logWriter struct{ e *env }

func (w logWriter) Write(p []byte) (int, error) {
	msg := string(p)
	for len(msg) > 0 && msg[len(msg)-1] == '\n' {
		msg = msg[:len(msg)-1]
	}
	w.e.log.Info(msg)
	return len(p), nil
}

var _ io.Writer = logWriter{}
