package pgtest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"pbem/migrations"
)

// A test database is a copy of a template database that holds every
// migration (CREATE DATABASE … TEMPLATE), made in tens of milliseconds
// where running the migrations takes a second or more.
//
// The template is named by the digest of the embedded migrations
// (templatePrefix + 16 hex digits of migrations.Digest), so a binary with
// other migrations (an older checkout, a branch) builds and uses its own,
// never a stale one. Several test binaries start at once: the first to
// find no template builds it under a PostgreSQL advisory lock named by the
// template, the others wait on that lock and then find it. A database is a
// template once its migrations all ran: the builder marks it IS_TEMPLATE
// last, so one left half-built by a killed run is dropped and built again.
// Templates of other digests built more than templateMaxAge ago are
// dropped when a new one is built, so that a developer's server does not
// keep one per migration ever written.
const (
	templatePrefix = "pbem_tmpl_"
	templateMaxAge = 7 * 24 * time.Hour
)

// templateBuilds counts the templates this process built (for its test).
var templateBuilds atomic.Int64

// templates caches, by admin URL, the template this process found ready.
var templates struct {
	sync.Mutex
	ready map[string]string
}

// cloneDB creates database name on adminURL's server as a copy of this
// binary's template, building the template first if the server has none.
func cloneDB(ctx context.Context, adminURL, name string) error {
	for attempt := 1; ; attempt++ {
		tmpl, err := template(ctx, adminURL)
		if err != nil {
			return err
		}
		err = execAdmin(ctx, adminURL, "CREATE DATABASE "+ident(name)+" TEMPLATE "+ident(tmpl))
		var pgErr *pgconn.PgError
		if attempt == 1 && errors.As(err, &pgErr) && pgErr.Code == pgerrcode.InvalidCatalogName {
			// Dropped as stale by a binary with other migrations since
			// this one found it: build it again.
			forgetTemplate(adminURL)
			continue
		}
		if err != nil {
			return fmt.Errorf("create database from template %s: %w", tmpl, err)
		}
		return nil
	}
}

// template returns the name of the template database holding this
// binary's migrations on adminURL's server, building it if it is absent.
func template(ctx context.Context, adminURL string) (string, error) {
	templates.Lock()
	defer templates.Unlock()
	if name, ok := templates.ready[adminURL]; ok {
		return name, nil
	}
	digest, err := migrations.Digest()
	if err != nil {
		return "", fmt.Errorf("template: %w", err)
	}
	name := templatePrefix + digest[:16]
	if err := ensureTemplate(ctx, adminURL, name, digest); err != nil {
		return "", fmt.Errorf("template %s: %w", name, err)
	}
	if templates.ready == nil {
		templates.ready = map[string]string{}
	}
	templates.ready[adminURL] = name
	return name, nil
}

func forgetTemplate(adminURL string) {
	templates.Lock()
	defer templates.Unlock()
	delete(templates.ready, adminURL)
}

// ensureTemplate makes sure database name exists on adminURL's server as
// a template with every migration applied.
func ensureTemplate(ctx context.Context, adminURL, name, digest string) error {
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", redact(adminURL), err)
	}
	defer admin.Close(context.Background())
	if ok, err := isTemplate(ctx, admin, name); err != nil || ok {
		return err
	}
	// Advisory locks belong to the database of the session: every binary
	// takes this one on the admin URL's database.
	key := lockKey(name)
	if _, err := admin.Exec(ctx, "SELECT pg_advisory_lock($1)", key); err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	defer func() { _, _ = admin.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", key) }()
	ok, err := isTemplate(ctx, admin, name)
	if err != nil || ok {
		return err // built by another binary while this one waited
	}
	// Under the lock a database of this name that is no template yet is
	// what a killed build left.
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop a half-built template: %w", err)
	}
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident(name)); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	templateBuilds.Add(1)
	if err := migrations.Up(withDatabase(adminURL, name)); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	comment := fmt.Sprintf("pgtest template: migrations %s, built %s", digest, time.Now().UTC().Format(time.RFC3339))
	for _, q := range []string{
		"COMMENT ON DATABASE " + ident(name) + " IS " + literal(comment),
		"ALTER DATABASE " + ident(name) + " IS_TEMPLATE true",
	} {
		if _, err := admin.Exec(ctx, q); err != nil {
			return fmt.Errorf("mark ready: %w", err)
		}
	}
	dropStaleTemplates(ctx, admin, name)
	return nil
}

// isTemplate reports whether database name exists and is marked a
// template (its build finished).
func isTemplate(ctx context.Context, admin *pgx.Conn, name string) (bool, error) {
	var ok bool
	err := admin.QueryRow(ctx, "SELECT datistemplate FROM pg_database WHERE datname = $1", name).Scan(&ok)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up: %w", err)
	}
	return ok, nil
}

// dropStaleTemplates drops the templates of other migrations built more
// than templateMaxAge ago, each under its own lock (skipped when another
// binary holds it). It is tidying: a failure leaves the template for next
// time.
func dropStaleTemplates(ctx context.Context, admin *pgx.Conn, keep string) {
	rows, err := admin.Query(ctx, `SELECT datname, coalesce(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE datistemplate AND starts_with(datname, $1) AND datname <> $2`, templatePrefix, keep)
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name, comment string
		if rows.Scan(&name, &comment) != nil {
			continue
		}
		_, built, found := strings.Cut(comment, ", built ")
		t, err := time.Parse(time.RFC3339, built)
		if found && err == nil && time.Since(t) > templateMaxAge {
			stale = append(stale, name)
		}
	}
	rows.Close()
	for _, name := range stale {
		key := lockKey(name)
		var locked bool
		if admin.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&locked) != nil || !locked {
			continue
		}
		if _, err := admin.Exec(ctx, "ALTER DATABASE "+ident(name)+" IS_TEMPLATE false"); err == nil {
			_, _ = admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name))
		}
		_, _ = admin.Exec(ctx, "SELECT pg_advisory_unlock($1)", key)
	}
}

// lockKey is the advisory lock key of template name.
func lockKey(name string) int64 {
	h := sha256.Sum256([]byte("pgtest " + name))
	return int64(binary.BigEndian.Uint64(h[:8]))
}

// execAdmin runs one statement on a connection of its own to adminURL.
func execAdmin(ctx context.Context, adminURL, sql string) error {
	admin, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", redact(adminURL), err)
	}
	defer admin.Close(context.Background())
	_, err = admin.Exec(ctx, sql)
	return err
}

// withDatabase returns adminURL naming database db instead.
func withDatabase(adminURL, db string) string {
	u, err := url.Parse(adminURL)
	if err != nil {
		return adminURL
	}
	u.Path = "/" + db
	return u.String()
}

func ident(name string) string { return pgx.Identifier{name}.Sanitize() }

func literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
