package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/migrations"
)

// TestNewDBHasEveryMigration: a database copied from the template is at
// the latest migration, clean, and a database of its own (a write to one
// copy is not in the next).
func TestNewDBHasEveryMigration(t *testing.T) {
	latest, err := migrations.Latest()
	if err != nil {
		t.Fatal(err)
	}
	a, b := NewDB(t), NewDB(t)
	for _, u := range []string{a, b} {
		v, dirty, err := migrations.Version(u)
		if err != nil || dirty || v != latest {
			t.Fatalf("%s: version %d dirty %v err %v, want %d clean", redact(u), v, dirty, err, latest)
		}
	}
	ctx := context.Background()
	ca := connect(t, a)
	if _, err := ca.Exec(ctx, "CREATE TABLE pgtest_probe (x int)"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := connect(t, b).QueryRow(ctx, "SELECT count(*) FROM pg_class WHERE relname = 'pgtest_probe'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the second copy sees the first's table: %d, %v", n, err)
	}
}

// TestTemplateBuiltOnceUnderConcurrency: binaries that find no template at
// once build it once between them (the advisory lock), every one of them
// then copies it, and a half-built one (what a killed build leaves: a
// database of the name that is not marked a template) is built again.
func TestTemplateBuiltOnceUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	admin := connect(t, AdminURL())
	name := templatePrefix + "test_" + randomHex(t)
	t.Cleanup(func() { dropTemplate(t, admin, name) })
	// A killed build: the database exists, empty and not a template.
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+ident(name)); err != nil {
		t.Fatal(err)
	}
	builds := templateBuilds.Load()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = ensureTemplate(ctx, AdminURL(), name, "test"); errs[i] != nil {
				return
			}
			copyName := fmt.Sprintf("pbem_test_%s_%d", randomHex(t), i)
			errs[i] = execAdmin(ctx, AdminURL(), "CREATE DATABASE "+ident(copyName)+" TEMPLATE "+ident(name))
			_ = execAdmin(ctx, AdminURL(), "DROP DATABASE IF EXISTS "+ident(copyName)+" WITH (FORCE)")
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("binary %d: %v", i, err)
		}
	}
	if n := templateBuilds.Load() - builds; n != 1 {
		t.Errorf("%d builds, want 1", n)
	}
	ok, err := isTemplate(ctx, admin, name)
	if err != nil || !ok {
		t.Fatalf("not marked a template: %v %v", ok, err)
	}
	latest, err := migrations.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if v, dirty, err := migrations.Version(withDatabase(AdminURL(), name)); err != nil || dirty || v != latest {
		t.Fatalf("template at version %d dirty %v err %v, want %d", v, dirty, err, latest)
	}
}

// TestStaleTemplatesDropped: a template of other migrations built more
// than templateMaxAge ago goes when a template is built; a recent one
// stays (another checkout on the same server may be using it).
func TestStaleTemplatesDropped(t *testing.T) {
	ctx := context.Background()
	admin := connect(t, AdminURL())
	old := templatePrefix + "test_old_" + randomHex(t)
	recent := templatePrefix + "test_new_" + randomHex(t)
	for name, built := range map[string]time.Time{
		old:    time.Now().Add(-templateMaxAge - time.Hour),
		recent: time.Now().Add(-time.Hour),
	} {
		t.Cleanup(func() { dropTemplate(t, admin, name) })
		for _, q := range []string{
			"CREATE DATABASE " + ident(name),
			"COMMENT ON DATABASE " + ident(name) + " IS " + literal("pgtest template: migrations x, built "+built.UTC().Format(time.RFC3339)),
			"ALTER DATABASE " + ident(name) + " IS_TEMPLATE true",
		} {
			if _, err := admin.Exec(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	}
	dropStaleTemplates(ctx, admin, "")
	var names []string
	rows, err := admin.Query(ctx, "SELECT datname FROM pg_database WHERE datname = ANY($1)", []string{old, recent})
	if err != nil {
		t.Fatal(err)
	}
	names, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 || names[0] != recent {
		t.Fatalf("left %v, want only %s", names, recent)
	}
}

func connect(t *testing.T, u string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func dropTemplate(t *testing.T, admin *pgx.Conn, name string) {
	ctx := context.Background()
	_, _ = admin.Exec(ctx, "ALTER DATABASE "+ident(name)+" IS_TEMPLATE false")
	if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+ident(name)+" WITH (FORCE)"); err != nil {
		t.Errorf("drop %s: %v", name, err)
	}
}

func randomHex(t *testing.T) string {
	b := make([]byte, 4)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
