// Command storage measures what finished games cost on disk: for each game
// of -game (default both: Lords of Scotland, then Swords and Bagpipes), on
// a fresh database of the server at -url, it plays -games four-player games
// to their end through the game service (random legal moves, as players
// would), marks their emails sent as the outbox worker
// would, removes sent emails past their retention when -retention is set
// (notify/postgres Outbox.PurgeSent, as the worker does once they are older), runs VACUUM
// FULL and prints every table's size (heap, TOAST and indexes) per game.
// With -baseline M it first plays M games the same way and measures, and
// prints the growth from there per game of the -games that follow: the
// marginal cost of a game, without the fixed size of the empty tables and
// their indexes (a page each at least), which -games alone spreads over
// the games played.
// With -keep it leaves the database for inspection (pg_dump, pbem verify).
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/bench/internal/playout"
	"pbem/engine"
	"pbem/engine/bagpipes"
	"pbem/engine/lords"
	play1 "pbem/events/play"
	playpg "pbem/events/play/postgres"
	evpg "pbem/events/postgres"
	"pbem/migrations"
	ppg "pbem/projections/postgres"
)

var secret = []byte("storage benchmark")

func main() {
	admin := flag.String("url", os.Getenv("PEERS_DATABASE_URL"), "admin URL of the PostgreSQL server")
	games := flag.Int("games", 20, "games to play to the end")
	baseline := flag.Int("baseline", 0, "games played and measured first: report the growth per game after them")
	keep := flag.Bool("keep", false, "keep the database (its name is printed)")
	retention := flag.Bool("retention", true, "remove sent emails as if past their retention")
	archive := flag.Bool("archive", true, "archive the ended games' events as if past PBEM_ARCHIVE_AFTER")
	which := flag.String("game", "", "the game to play (lords-of-scotland or swords-and-bagpipes; default both)")
	flag.Parse()
	l, err := lords.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, "storage:", err)
		os.Exit(1)
	}
	for _, eng := range []engine.Game{l, bagpipes.Game{}} {
		if *which != "" && *which != eng.Name() {
			continue
		}
		if err := run(context.Background(), eng, *admin, *baseline, *games, *keep, settle{*retention, *archive}); err != nil {
			fmt.Fprintln(os.Stderr, "storage:", err)
			os.Exit(1)
		}
	}
}

// settle says what happens to played games before they are measured, as
// it would once they are old: their sent emails removed (retention), their
// events archived (archive).
type settle struct{ retention, archive bool }

func run(ctx context.Context, eng engine.Game, admin string, baseline, n int, keep bool, how settle) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	db := fmt.Sprintf("peers_storage_%d", time.Now().UnixNano()%1e9)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		return err
	}
	if !keep {
		defer conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+db+" WITH (FORCE)") //nolint:errcheck
	}
	u, _ := url.Parse(admin)
	u.Path = "/" + db
	if err := migrations.Up(u.String()); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, u.String())
	if err != nil {
		return err
	}
	defer pool.Close()
	store := evpg.New(pool)
	defer store.Close()
	svc := play1.New(play1.Config{Games: engine.NewRegistry(eng), Store: store, Repo: ppg.New(pool), Accounts: playpg.New(pool), Visits: playpg.New(pool), Secret: secret})
	rng := rand.New(rand.NewPCG(7, 11))
	g := games{svc: svc, pool: pool, archiver: ppg.NewArchiver(store), name: eng.Name(), settle: how}
	var before []tableSize
	if baseline > 0 {
		if _, err := g.play(ctx, baseline, rng); err != nil {
			return err
		}
		if before, err = sizes(ctx, pool); err != nil {
			return err
		}
	}
	moves, err := g.play(ctx, n, rng)
	if err != nil {
		return err
	}
	after, err := sizes(ctx, pool)
	if err != nil {
		return err
	}
	if baseline > 0 {
		fmt.Printf("%d finished four-player %s games after %d, %.1f moves a game; growth per game; database %s\n",
			n, eng.Name(), baseline, float64(moves)/float64(n), db)
	} else {
		fmt.Printf("%d finished four-player %s games, %.1f moves a game; database %s\n", n, eng.Name(), float64(moves)/float64(n), db)
	}
	report(before, after, n)
	return nil
}

// games plays games and settles them.
type games struct {
	svc      *play1.Service
	pool     *pgxpool.Pool
	archiver *ppg.Archiver
	name     string
	settle
}

// play plays n games to their end, settles their emails (finishMail) and
// their events, compacts the database (VACUUM FULL), and returns the moves
// played.
func (g games) play(ctx context.Context, n int, rng *rand.Rand) (int, error) {
	moves := 0
	for range n {
		m, err := play(ctx, g.svc, g.name, rng)
		if err != nil {
			return 0, err
		}
		moves += m
	}
	if err := finishMail(ctx, g.pool, g.retention); err != nil {
		return 0, err
	}
	if g.archive {
		if _, err := g.archiver.ArchiveEndedBefore(ctx, time.Now().Add(time.Second)); err != nil {
			return 0, err
		}
	}
	_, err := g.pool.Exec(ctx, "VACUUM FULL ANALYZE")
	return moves, err
}

// play creates a four-player game of name and plays random legal moves to its end.
func play(ctx context.Context, svc *play1.Service, name string, rng *rand.Rand) (int, error) {
	id, err := playout.Create(ctx, svc, name, 4)
	if err != nil {
		return 0, err
	}
	moves, _, err := playout.Play(ctx, svc, secret, id, rng, -1)
	return moves, err
}
