// Command history builds a database with history, for measuring pbem at
// scale (issue #18, "scale with history"): -finished finished games and
// -active games in progress, of both games, four players each.
//
// Playing 110,000 games through the service would take most of an hour,
// so it plays -templates distinct games of each kind through the game
// service (random legal moves, as players would: bench/internal/playout)
// and then copies them under fresh game ids: each copy's events are
// re-chained (their hashes cover the stream id) and written with COPY in
// transactions of at most 9,000 events, positions taken from
// events_position_base() as the store takes them; its projection rows
// (games, seats, move requests...) are copied in the same
// transaction with the id replaced. Sent emails are left out, as after
// their retention; so are the active copies' pending emails. `pbem verify`
// passes on the result.
//
//	go run ./bench/history -url postgres://postgres@127.0.0.1:5432/postgres -db pbem_history
//
// It prints the database's URL, its size and its counts. bench/history/run.sh
// then times `pbem verify` and `pbem rebuild` on it and compares the move
// and view latencies of `pbemload -db` there with an empty database.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	"pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/migrations"
	ppg "pbem/projections/postgres"
)

// secret derives the template games' tokens.
var secret = []byte("history benchmark")

func main() {
	def := os.Getenv("DATABASE_URL")
	if def == "" {
		def = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
	}
	admin := flag.String("url", def, "URL of the PostgreSQL server (a database where CREATE DATABASE may run)")
	db := flag.String("db", "pbem_history", "database to create (an existing one is dropped first)")
	finished := flag.Int("finished", 100000, "finished games")
	active := flag.Int("active", 10000, "games in progress")
	templates := flag.Int("templates", 100, "distinct games played per game and state (finished, in progress)")
	flag.Parse()
	start := time.Now()
	if err := run(context.Background(), *admin, *db, *finished, *active, *templates); err != nil {
		fmt.Fprintln(os.Stderr, "history:", err)
		os.Exit(1)
	}
	fmt.Printf("built in %s\n", time.Since(start).Round(time.Second))
}

func run(ctx context.Context, admin, db string, finished, active, templates int) error {
	if templates < 1 || finished < 0 || active < 0 {
		return fmt.Errorf("-templates must be positive, -finished and -active not negative")
	}
	dbURL, err := createDB(ctx, admin, db)
	if err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	l, err := lords.New()
	if err != nil {
		return err
	}
	games := engine.NewRegistry(l, bagpipes.Game{})
	store := evpg.New(pool)
	defer store.Close()
	svc := play.New(play.Config{Games: games, Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret})

	t0 := time.Now()
	tpl, err := playTemplates(ctx, svc, templates)
	if err != nil {
		return err
	}
	fmt.Printf("played %d template games (%d events) in %s\n", len(tpl.finished)+len(tpl.active), tpl.events, time.Since(t0).Round(time.Second))
	if _, err := pool.Exec(ctx, `DELETE FROM outbox`); err != nil {
		return err
	}
	t1 := time.Now()
	c := &copier{pool: pool, store: store}
	if err := c.load(ctx, tpl); err != nil {
		return err
	}
	if err := c.copyGames(ctx, tpl.finished, finished-len(tpl.finished)); err != nil {
		return err
	}
	if err := c.copyGames(ctx, tpl.active, active-len(tpl.active)); err != nil {
		return err
	}
	fmt.Printf("copied %d games (%d events) in %s\n", c.games, c.events, time.Since(t1).Round(time.Second))
	if _, err := pool.Exec(ctx, `VACUUM ANALYZE`); err != nil {
		return err
	}
	return report(ctx, pool, dbURL)
}

var dbName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// createDB (re)creates database db on the server of admin, migrates it and
// returns its URL.
func createDB(ctx context.Context, admin, db string) (string, error) {
	if !dbName.MatchString(db) {
		return "", fmt.Errorf("bad database name %q: lowercase letters, digits and _", db)
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", err
	}
	defer conn.Close(context.Background())
	name := pgx.Identifier{db}.Sanitize()
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	u, err := url.Parse(admin)
	if err != nil {
		return "", err
	}
	u.Path = "/" + db
	if err := migrations.Up(u.String()); err != nil {
		return "", err
	}
	return u.String(), nil
}

// report prints the database's URL, size and counts.
func report(ctx context.Context, pool *pgxpool.Pool, dbURL string) error {
	var size string
	var games, finished, evs int64
	err := pool.QueryRow(ctx, `SELECT pg_size_pretty(pg_database_size(current_database())),
		(SELECT count(*) FROM games), (SELECT count(*) FROM games WHERE status <> 'active'),
		(SELECT count(*) FROM events)`).Scan(&size, &games, &finished, &evs)
	if err != nil {
		return err
	}
	fmt.Printf("database %s: %s, %d games (%d finished, %d in progress), %d events\n",
		dbURL, size, games, finished, games-finished, evs)
	return nil
}
