package main

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events"
)

// maxTxEvents is how many events one copy transaction writes: positions
// are (xid + shift) * 10000 + n with n < 10000 (migration 0005).
const maxTxEvents = 9000

// copier copies template games under fresh ids.
type copier struct {
	pool  *pgxpool.Pool
	store events.Store
	// streams are the template games' events as the store reads them.
	streams map[string][]events.Event
	// eventsSQL and tablesSQL copy a batch (see load).
	eventsSQL string
	tablesSQL []string
	games     int
	events    int
}

// load reads the templates' events and builds the copying statements from
// the schema: every column is copied as stored, except the ids, the
// positions and the hashes.
func (c *copier) load(ctx context.Context, t *templateSet) error {
	c.streams = map[string][]events.Event{}
	for _, id := range append(append([]string{}, t.finished...), t.active...) {
		evs, err := c.store.ReadStream(ctx, id, 0)
		if err != nil {
			return err
		}
		c.streams[id] = evs
	}
	cols, err := columns(ctx, c.pool, "events")
	if err != nil {
		return err
	}
	sel := make([]string, len(cols))
	for i, col := range cols {
		switch col {
		case "position":
			sel[i] = "(SELECT events_position_base()) + n.ord - 1"
		case "stream":
			sel[i] = "n.new"
		case "hash":
			sel[i] = "n.hash"
		default:
			sel[i] = "x." + pgx.Identifier{col}.Sanitize()
		}
	}
	c.eventsSQL = fmt.Sprintf(`INSERT INTO events (%s) SELECT %s
		FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bytea[]) WITH ORDINALITY AS n(old, version, new, hash, ord)
		JOIN events x ON x.stream = n.old AND x.version = n.version`, quoted(cols), strings.Join(sel, ", "))
	// The read models: every table keyed by a game id, but the outbox
	// (sent emails are past their retention).
	rows, err := c.pool.Query(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND ((table_name = 'games' AND column_name = 'id') OR column_name = 'game_id')
		  AND table_name NOT IN ('outbox', 'events')
		ORDER BY table_name = 'games' DESC, table_name`)
	if err != nil {
		return err
	}
	type keyed struct{ table, key string }
	var tables []keyed
	for rows.Next() {
		var k keyed
		if err := rows.Scan(&k.table, &k.key); err != nil {
			return err
		}
		tables = append(tables, k)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, k := range tables {
		cols, err := columns(ctx, c.pool, k.table)
		if err != nil {
			return err
		}
		sel := make([]string, len(cols))
		for i, col := range cols {
			if col == k.key {
				sel[i] = "m.new"
			} else {
				sel[i] = "x." + pgx.Identifier{col}.Sanitize()
			}
		}
		c.tablesSQL = append(c.tablesSQL, fmt.Sprintf(`INSERT INTO %s (%s) SELECT %s
			FROM %[1]s x JOIN unnest($1::text[], $2::text[]) AS m(old, new) ON x.%[4]s = m.old`,
			pgx.Identifier{k.table}.Sanitize(), quoted(cols), strings.Join(sel, ", "), pgx.Identifier{k.key}.Sanitize()))
	}
	return nil
}

// copyGames writes n copies of the templates, round robin, in
// transactions of at most maxTxEvents events.
func (c *copier) copyGames(ctx context.Context, templates []string, n int) error {
	var b batch
	for i := range n {
		tpl := templates[i%len(templates)]
		evs := c.streams[tpl]
		if b.events+len(evs) > maxTxEvents {
			if err := c.flush(ctx, &b); err != nil {
				return err
			}
		}
		id, err := newID()
		if err != nil {
			return err
		}
		b.add(tpl, id, evs)
	}
	return c.flush(ctx, &b)
}

// batch is one copy transaction's input.
type batch struct {
	old, new     []string // games
	evOld, evNew []string // events, by row
	versions     []int64
	hash         [][]byte
	events       int
}

// add queues a copy of template tpl (events evs) as game id, re-chaining
// the hashes over the new stream id.
func (b *batch) add(tpl, id string, evs []events.Event) {
	b.old, b.new = append(b.old, tpl), append(b.new, id)
	prev := events.GenesisHash()
	for _, e := range evs {
		e.Stream = id
		canon, err := events.Canonical(&e)
		if err != nil {
			panic(err) // the store read it: it is valid JSON
		}
		h := events.ChainHash(prev, canon)
		b.evOld, b.evNew = append(b.evOld, tpl), append(b.evNew, id)
		b.versions = append(b.versions, e.Version)
		b.hash = append(b.hash, h)
		prev = h
	}
	b.events += len(evs)
}

// flush writes b in one transaction and empties it.
func (c *copier) flush(ctx context.Context, b *batch) error {
	if len(b.new) == 0 {
		return nil
	}
	err := pgx.BeginFunc(ctx, c.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, c.eventsSQL, b.evOld, b.versions, b.evNew, b.hash)
		if err != nil {
			return fmt.Errorf("copy events: %w", err)
		}
		if int(tag.RowsAffected()) != b.events {
			return fmt.Errorf("copy events: %d rows, want %d", tag.RowsAffected(), b.events)
		}
		for _, q := range c.tablesSQL {
			if _, err := tx.Exec(ctx, q, b.old, b.new); err != nil {
				return fmt.Errorf("copy rows: %w\n%s", err, q)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	c.games += len(b.new)
	c.events += b.events
	*b = batch{}
	return nil
}

// columns lists table's columns in order.
func columns(ctx context.Context, pool *pgxpool.Pool, table string) ([]string, error) {
	rows, err := pool.Query(ctx, `SELECT column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
		ORDER BY ordinal_position`, table)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func quoted(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = pgx.Identifier{c}.Sanitize()
	}
	return strings.Join(q, ", ")
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID is a fresh game id in the service's form: 16 lowercase base32
// characters.
func newID() (string, error) {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return idEncoding.EncodeToString(b), nil
}
