package main

import (
	"context"
	"fmt"
	"time"

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

// report prints each table's size (heap, TOAST, indexes) per game.
func report(ctx context.Context, pool *pgxpool.Pool, games int) error {
	rows, err := pool.Query(ctx, `SELECT c.relname, pg_total_relation_size(c.oid), pg_relation_size(c.oid),
		pg_indexes_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 2 DESC`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var total int64
	type line struct {
		name               string
		all, heap, indexes int64
	}
	var lines []line
	for rows.Next() {
		var l line
		if err := rows.Scan(&l.name, &l.all, &l.heap, &l.indexes); err != nil {
			return err
		}
		total += l.all
		lines = append(lines, l)
	}
	if err := rows.Err(); err != nil {
		return err
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
	return nil
}
