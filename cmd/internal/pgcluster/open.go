package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"time"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// LocalURL is the server Open tries when DATABASE_URL is unset, before a
// private cluster.
const LocalURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable&connect_timeout=3"

// Options says where Open looks for a server.
type Options struct {
	// DatabaseURL is DATABASE_URL; when set, Open uses it and nothing else.
	DatabaseURL string
	// DataDir is pbem's data folder; a private cluster lives in DataDir/postgres.
	DataDir string
	// Install allows installing PostgreSQL with apt-get when it is missing.
	Install bool
	// Log receives progress messages; nil discards them.
	Log io.Writer
	// NoFsync starts a private cluster, when Open starts one, with the
	// NoFsync settings: for a test run, whose databases are thrown away.
	// A server found running is used as it is.
	NoFsync bool
}

// Database is the server Open found or started.
type Database struct {
	// AdminURL is a URL of the server, on a database that exists and with
	// a role that can create databases (except with DATABASE_URL, where it
	// is DATABASE_URL itself).
	AdminURL string
	// Source says where it came from: "DATABASE_URL", "127.0.0.1:5432" or
	// "private cluster <dir>".
	Source string
	// Cluster is the private cluster, or nil.
	Cluster *Cluster
}

// Open finds or starts a server, in the order of the package doc, and waits
// until it accepts connections.
func Open(ctx context.Context, opts Options) (*Database, error) {
	if opts.DatabaseURL != "" {
		return &Database{AdminURL: opts.DatabaseURL, Source: "DATABASE_URL"}, nil
	}
	if ping(ctx, LocalURL) == nil {
		return &Database{AdminURL: LocalURL, Source: "127.0.0.1:5432"}, nil
	}
	dataDir := opts.DataDir
	if dataDir == "" {
		dataDir = "data"
	}
	var settings []string
	if opts.NoFsync {
		settings = NoFsync
	}
	c, err := Ensure(ctx, filepath.Join(dataDir, "postgres"), opts.Install, opts.Log, settings...)
	if err != nil {
		return nil, err
	}
	db := &Database{AdminURL: c.AdminURL(), Source: "private cluster " + c.Dir, Cluster: c}
	wctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := waitReady(wctx, func(ctx context.Context) error { return ping(ctx, db.AdminURL) }); err != nil {
		_ = db.Close(context.Background())
		return nil, err
	}
	return db, nil
}

// Close stops the private cluster if Open started it; otherwise it does
// nothing.
func (d *Database) Close(ctx context.Context) error {
	if d.Cluster == nil || !d.Cluster.Started() {
		return nil
	}
	return d.Cluster.Stop(ctx)
}

// URL returns the URL of database name: DATABASE_URL unchanged when it was
// given (it names its own database), else AdminURL with its database
// replaced by name, which Open's caller creates with CreateDatabase.
func (d *Database) URL(name string) (string, error) {
	if d.Source == "DATABASE_URL" {
		return d.AdminURL, nil
	}
	u, err := url.Parse(d.AdminURL)
	if err != nil {
		return "", fmt.Errorf("cluster: parse URL: %w", err)
	}
	u.Path = "/" + name
	return u.String(), nil
}

// CreateDatabase creates database name on the server of d unless it exists
// (or d is DATABASE_URL, whose database is the caller's business).
func (d *Database) CreateDatabase(ctx context.Context, name string) error {
	if d.Source == "DATABASE_URL" {
		return nil
	}
	conn, err := pgx.Connect(ctx, d.AdminURL)
	if err != nil {
		return fmt.Errorf("cluster: connect: %w", err)
	}
	defer conn.Close(context.Background())
	var exists bool
	if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		return fmt.Errorf("cluster: look up database %s: %w", name, err)
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == pgerrcode.DuplicateDatabase {
		return nil // created meanwhile by another process
	}
	if err != nil {
		return fmt.Errorf("cluster: create database %s: %w", name, err)
	}
	return nil
}

// ping connects to url and closes the connection.
func ping(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	return conn.Close(ctx)
}
