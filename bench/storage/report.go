package main

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	notifypg "pbem/notify/postgres"
)

// finishMail marks every email sent, as the outbox worker would, and then,
// when retention is set, removes them as past their retention.
func finishMail(ctx context.Context, pool *pgxpool.Pool, retention bool) error {
	if _, err := pool.Exec(ctx, `UPDATE outbox SET status = 'sent', sent_at = now(), attempts = 1,
		message_id = '<outbox-' || id || '.' || game_id || '@example.org>'`); err != nil {
		return err
	}
	if !retention {
		return nil
	}
	_, err := notifypg.NewOutbox(pool).PurgeSent(ctx, time.Now().Add(time.Second), 0)
	return err
}

// tableSize is a table's size on disk in bytes: all of it, its heap and
// its indexes (the rest is TOAST).
type tableSize struct {
	name               string
	all, heap, indexes int64
}

// sizes returns the size of every table, largest first.
func sizes(ctx context.Context, pool *pgxpool.Pool) ([]tableSize, error) {
	rows, err := pool.Query(ctx, `SELECT c.relname, pg_total_relation_size(c.oid), pg_relation_size(c.oid),
		pg_indexes_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 2 DESC`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (tableSize, error) {
		var t tableSize
		err := r.Scan(&t.name, &t.all, &t.heap, &t.indexes)
		return t, err
	})
}

// report prints each table's size (heap, TOAST, indexes) per game: of
// after, less before (nil: nothing) when given, divided by games.
func report(before, after []tableSize, games int) {
	base := map[string]tableSize{}
	for _, t := range before {
		base[t.name] = t
	}
	var total int64
	lines := make([]tableSize, 0, len(after))
	for _, t := range after {
		b := base[t.name]
		d := tableSize{name: t.name, all: t.all - b.all, heap: t.heap - b.heap, indexes: t.indexes - b.indexes}
		total += d.all
		lines = append(lines, d)
	}
	g := float64(games) * 1024
	fmt.Printf("%-18s %10s %8s %8s %8s %6s\n", "table", "KB/game", "heap", "toast", "indexes", "share")
	for _, l := range lines {
		if l.all == 0 {
			continue
		}
		fmt.Printf("%-18s %10.1f %8.1f %8.1f %8.1f %5.0f%%\n", l.name, float64(l.all)/g, float64(l.heap)/g,
			float64(l.all-l.heap-l.indexes)/g, float64(l.indexes)/g, 100*float64(l.all)/float64(total))
	}
	fmt.Printf("%-18s %10.1f\n", "total", float64(total)/g)
}
