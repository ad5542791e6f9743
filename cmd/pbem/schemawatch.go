package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/api"
)

// schemaWatchEvery is how often serve looks at the database's schema.
const schemaWatchEvery = time.Second

// schemaWatch follows the schema under a running server (a `pbem migrate`
// or another tool may change it): while the schema is older than the
// binary's latest migration, dirty, or without its games table, requests
// are answered 503 (ready); when it is whole again after such a change,
// or its games table was created anew (the tables were dropped and made
// again between two looks), the game service's caches are emptied
// (forget), so that no row of the old tables is served.
type schemaWatch struct {
	pool   *pgxpool.Pool
	latest uint
	forget func()
	log    *slog.Logger

	mu       sync.Mutex
	notReady error // nil when the schema is ready
	gamesOID uint32
}

// check looks at the schema once. A database that does not answer changes
// nothing here: that outage is the requests' own to report.
func (w *schemaWatch) check(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var oid uint32
	var version int64
	var dirty bool
	err := w.pool.QueryRow(ctx, `SELECT coalesce(to_regclass('games')::oid, 0),
		coalesce((SELECT version FROM schema_migrations), 0), coalesce((SELECT dirty FROM schema_migrations), false)`).Scan(&oid, &version, &dirty)
	var pgErr *pgconn.PgError
	var reason error
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == "42P01": // no schema_migrations
		reason = fmt.Errorf("%w: no schema", api.ErrSchemaNotReady)
	case err != nil:
		return
	case dirty || version < int64(w.latest) || oid == 0:
		reason = fmt.Errorf("%w: at migration %d (dirty %v), this binary needs %d", api.ErrSchemaNotReady, version, dirty, w.latest)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	was := w.notReady
	w.notReady = reason
	switch {
	case reason != nil && was == nil:
		w.log.Warn("the database's schema changed under the server: answering 503 until it is whole", "reason", reason.Error())
	case reason == nil && (was != nil || (w.gamesOID != 0 && oid != w.gamesOID)):
		w.forget()
		w.log.Info("the database's schema is whole again: caches emptied")
	}
	if reason == nil {
		w.gamesOID = oid
	}
}

// ready is api.Config.Ready: the last look's answer, or a new look's.
func (w *schemaWatch) ready(ctx context.Context, fresh bool) error {
	if fresh {
		w.check(ctx)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.notReady
}

// run checks the schema every schemaWatchEvery until ctx ends.
func (w *schemaWatch) run(ctx context.Context) {
	t := time.NewTicker(schemaWatchEvery)
	defer t.Stop()
	for {
		w.check(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
