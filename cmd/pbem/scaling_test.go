package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/play"
	evpg "pbem/events/postgres"
	"pbem/events/postgres/pgtest"
	"pbem/events/tokens"
)

// gameKeyed lists the tables keyed by game, with the column that holds
// the game's id: the distribution column if the store were spread over
// several machines by game (docs/SCALING.md).
var gameKeyed = map[string]string{
	"events":        "stream",
	"games":         "id",
	"game_states":   "game_id",
	"seats":         "game_id",
	"move_requests": "game_id",
	"outbox":        "game_id",
	"inbound_mail":  "game_id",
	"seat_visits":   "game_id",
	// The records of ended games (migration 0100): written when a game
	// ends, never on the move path.
	"record_games":   "game_id",
	"seat_records":   "game_id",
	"rating_changes": "game_id",
	// The archive of ended games' events (migration 0107): written an
	// hour's pass after they ended, never on the move path.
	"archived_streams": "stream",
}

// globalTables are the tables not keyed by game, and why (docs/SCALING.md
// says the same). No statement of the move path may touch them.
var globalTables = map[string]string{
	"mail_prefs":         "keyed by email address: a player's choice across games",
	"mail_digests":       "keyed by email address and day: one digest across games",
	"mailbox":            "the dev mailbox, used only without PBEM_SMTP_URL",
	"schema_migrations":  "golang-migrate's schema version",
	"events_xid_shift":   "one row per database: the shift of log positions after a restore",
	"mail_bounces":       "keyed by email address: an address that bounced, across games",
	"proposals":          "a game before it exists, found by its confirmation token: read once, at creation",
	"mail_blocks":        "keyed by email address: an address that refuses every invitation",
	"signin_links":       "keyed by email address: a player's sign-in links, across games",
	"sessions":           "keyed by session token: a player's sessions of My games, across games",
	"ratings":            "keyed by game kind and player: a rating spans a player's games",
	"leaderboard_listed": "keyed by email address: a player's choice to be listed, across games",
}

// uniqueWithoutKey lists the unique indexes of game-keyed tables that do
// not include the game column: a distributed PostgreSQL (Citus) requires
// it in every unique constraint, so these would change (docs/SCALING.md).
var uniqueWithoutKey = map[string]bool{
	"events_pkey": true, // position: global log order
	"outbox_pkey": true, // id: a bigserial
}

// sqlLog is a pgx tracer that records every statement and its arguments,
// whether sent alone or in a batch.
type sqlLog struct {
	mu    sync.Mutex
	on    bool
	stmts []tracedSQL
}

type tracedSQL struct {
	sql  string
	args []any
}

func (l *sqlLog) add(sql string, args []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.on {
		l.stmts = append(l.stmts, tracedSQL{sql, args})
	}
}

// start clears the log and records from now on; stop returns what it
// recorded.
func (l *sqlLog) start() { l.mu.Lock(); l.on, l.stmts = true, nil; l.mu.Unlock() }
func (l *sqlLog) stop() []tracedSQL {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on = false
	return l.stmts
}

func (l *sqlLog) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	l.add(d.SQL, d.Args)
	return ctx
}
func (l *sqlLog) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (l *sqlLog) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}
func (l *sqlLog) TraceBatchQuery(_ context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	l.add(d.SQL, d.Args)
}
func (l *sqlLog) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// tableRE finds the relations a statement reads or writes (CTE names too,
// which the test ignores since they are no table).
var tableRE = regexp.MustCompile(`(?i)\b(?:from|into|update|join)\s+([a-z_][a-z0-9_]*)|\b(events)_append_at\s*\(`)

// TestMovePathNamesTheGame plays real moves (a player's view and move,
// with and without an idempotency key, and a timeout's default moves)
// through the service as serve wires it, on a real database, records the
// SQL with a pgx tracer, and checks that every statement touching a table
// names the game: the table is keyed by game, the statement filters or
// writes its game column, and the game's id is among its arguments. So a
// move would stay on one machine were the store distributed by game id.
// It also checks the schema: every table is classified, and every unique
// index of a game-keyed table includes the game column, but the listed
// exceptions.
func TestMovePathNamesTheGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(pgtest.NewDB(t))
	if err != nil {
		t.Fatal(err)
	}
	trace := &sqlLog{}
	cfg.ConnConfig.Tracer = trace
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	checkSchemaKeys(t, pool)

	store := evpg.New(pool)
	defer store.Close()
	e := &env{cfg: config{Secret: strings.Repeat("s", 32), DataDir: t.TempDir()},
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	svc, err := newService(e, pool, store)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for range 2 {
		g, err := svc.Create(ctx, play.CreateGame{Game: "lords-of-scotland", Language: "en", Organiser: play.Organiser{Name: "Ann", Email: "ann@example.org"},
			Players: []play.NewPlayer{{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	seen := map[string]bool{}
	for i := range 12 {
		id := ids[i%2]
		trace.start()
		playOne(t, svc, e, id, i)
		checkNamesGame(t, id, trace.stop(), seen)
	}
	trace.start()
	if acted, err := svc.Timeout(ctx, ids[0], time.Now().Add(1000*time.Hour)); err != nil || !acted {
		t.Fatalf("timeout: %v %v", acted, err)
	}
	checkNamesGame(t, ids[0], trace.stop(), seen)
	for _, table := range []string{"events", "games", "outbox", "move_requests"} {
		if !seen[table] {
			t.Errorf("the move path never touched %s: the test misses statements", table)
		}
	}
}

// playOne plays a legal move of the seat to move in game id, as the API
// does: the seat's view, then the first legal move at the view's version
// (every third with an idempotency key).
func playOne(t *testing.T, svc *play.Service, e *env, id string, i int) {
	t.Helper()
	ctx := context.Background()
	secret := []byte(e.cfg.Secret)
	for seat := range 2 {
		tok := tokens.Seat(secret, id, seat, 0)
		v, err := svc.View(ctx, id, tok)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.LegalMoves) == 0 {
			continue
		}
		mv, err := json.Marshal(v.LegalMoves[0])
		if err != nil {
			t.Fatal(err)
		}
		req := play.MoveRequest{Version: v.Version, Move: play.PostedMove(mv), RequestID: fmt.Sprint("r", i)}
		if i%3 == 0 {
			req.Key = fmt.Sprint("k", i)
		}
		if _, err := svc.Move(ctx, id, tok, req); err != nil {
			t.Fatalf("move %d of %s: %v", i, id, err)
		}
		return
	}
	t.Fatalf("no seat of %s has a legal move", id)
}

// checkNamesGame checks each statement that touches a table.
func checkNamesGame(t *testing.T, id string, stmts []tracedSQL, seen map[string]bool) {
	t.Helper()
	for _, s := range stmts {
		for _, m := range tableRE.FindAllStringSubmatch(s.sql, -1) {
			table := strings.ToLower(m[1] + m[2])
			col, keyed := gameKeyed[table]
			if _, global := globalTables[table]; global {
				t.Errorf("the move path touches %s, a table not keyed by game: %s", table, oneLine(s.sql))
				continue
			}
			if !keyed {
				continue // a CTE or a function's alias
			}
			seen[table] = true
			if !regexp.MustCompile(`\b`+col+`\b`).MatchString(s.sql) && m[2] == "" {
				t.Errorf("statement on %s does not name its column %s: %s", table, col, oneLine(s.sql))
			}
			if !hasArg(s.args, id) {
				t.Errorf("statement on %s lacks game %s among its arguments %v: %s", table, id, s.args, oneLine(s.sql))
			}
		}
	}
}

// hasArg reports whether id is one of args or an element of an argument.
func hasArg(args []any, id string) bool {
	for _, a := range args {
		switch v := a.(type) {
		case string:
			if v == id {
				return true
			}
		case []string:
			if slices.Contains(v, id) {
				return true
			}
		}
	}
	return false
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkSchemaKeys checks that every table is classified and that the
// unique indexes of game-keyed tables include the game column.
func checkSchemaKeys(t *testing.T, pool *pgxpool.Pool) {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if _, ok := gameKeyed[tb]; ok {
			continue
		}
		if _, ok := globalTables[tb]; !ok {
			t.Errorf("table %s is neither keyed by game nor a listed global table: classify it here and in docs/SCALING.md", tb)
		}
	}
	rows, err = pool.Query(ctx, `SELECT i.indexrelid::regclass::text, c.relname,
		array(SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum = ANY (i.indkey))::text[]
		FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
		WHERE i.indisunique AND c.relnamespace = current_schema()::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	type idx struct {
		name, table string
		cols        []string
	}
	idxs, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (idx, error) {
		var x idx
		return x, r.Scan(&x.name, &x.table, &x.cols)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range idxs {
		col, keyed := gameKeyed[x.table]
		if keyed && !slices.Contains(x.cols, col) && !uniqueWithoutKey[x.name] {
			t.Errorf("unique index %s on %s%v lacks the game column %s", x.name, x.table, x.cols, col)
		}
	}
}
