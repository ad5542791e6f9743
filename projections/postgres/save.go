package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Save implements projections.Repository: it writes one batch's Changes
// in the batch's transaction. The projections of every Change (game rows,
// remembered answers) are one statement over arrays (changesSQL), and
// their emails another (outbox.Insert), whatever their number; before
// them, a creation inserts its
// game row and seats, and a resent link updates its seat (primary data).
// The statements go with the store's COMMIT, in the same round trip
// (events.Tx's Defer); without a transaction (nil: the memory store, which
// only tests and tools use) they go on the pool, not atomic with the
// events.
func (r *Repo) Save(ctx context.Context, tx events.Tx, cs []*projections.Change) error {
	if len(cs) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	for _, c := range cs {
		if err := queuePrimary(b, c); err != nil {
			return err
		}
	}
	if err := queueChanges(b, cs); err != nil {
		return err
	}
	if tx != nil {
		for _, qq := range b.QueuedQueries {
			tx.Defer(qq.SQL, qq.Arguments...)
		}
		return nil
	}
	if err := r.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("projections/postgres: save %d changes: %w", len(cs), err)
	}
	return nil
}

// queuePrimary adds the statements of a Change's primary data: a new
// game's row and seats, or new seat tokens.
func queuePrimary(b *pgx.Batch, c *projections.Change) error {
	g := c.Game
	if c.Create {
		if err := queueInsertGame(b, g); err != nil {
			return err
		}
		for _, s := range g.Seats {
			b.Queue(`INSERT INTO seats (game_id, seat, name, email, token_gen, token_hash, bot, language) VALUES ($1, $2, $3, $4, $5, $6, nullif($7, ''), $8)`,
				g.ID, s.Seat, s.Name, s.Email, s.TokenGen, s.TokenHash, s.Bot, s.Language)
		}
	}
	for _, s := range c.SeatTokens {
		// A corrected address or a replaced player comes with its token;
		// a language the player chose, with the seat as it is. A seat given
		// to another address takes that person's time zone, as their other
		// seats know it, not the last person's (issue #43: the zone is the
		// person's; notify/postgres.Seats.SetZone).
		// An away (pbem.away, pbem.back) comes with the seat as it is.
		away, err := s.AwayText()
		if err != nil {
			return fmt.Errorf("projections/postgres: %w", err)
		}
		b.Queue(`UPDATE seats SET token_gen = $3, token_hash = $4, name = $5, email = $6, bot = nullif($7, ''), language = $8,
			time_zone = CASE WHEN lower(email) = lower($6) THEN time_zone
				ELSE coalesce((SELECT o.time_zone FROM seats o WHERE lower(o.email) = lower($6) AND $6 <> '' AND o.time_zone <> '' LIMIT 1), '') END,
			away = $9, away_until = $10
			WHERE game_id = $1 AND seat = $2`, g.ID, s.Seat, s.TokenGen, s.TokenHash, s.Name, s.Email, s.Bot, s.Language, away, s.AwayUntil())
	}
	if c.AdminToken && !c.Create {
		// A revoked admin link: the new one's hash (primary data).
		b.Queue(`UPDATE games SET admin_token_hash = $2 WHERE id = $1`, g.ID, g.AdminHash)
	}
	if len(c.SeatTokens) > 0 && !c.Create {
		// A replaced player renames the seat in the game row too, and
		// joins the people who left it (rare: changesSQL leaves players
		// and former alone).
		players, err := json.Marshal(g.Players)
		if err != nil {
			return fmt.Errorf("projections/postgres: marshal players: %w", err)
		}
		var former []byte
		if len(g.Former) > 0 {
			if former, err = json.Marshal(g.Former); err != nil {
				return fmt.Errorf("projections/postgres: marshal former players: %w", err)
			}
		}
		b.Queue(`UPDATE games SET players = $2, former = $3 WHERE id = $1`, g.ID, players, former)
	}
	return nil
}

type gameArgs struct {
	players, result []byte
	toMove          []int32
}

func argsOf(g *projections.Game) (gameArgs, error) {
	var a gameArgs
	var err error
	if a.players, err = json.Marshal(g.Players); err != nil {
		return a, fmt.Errorf("projections/postgres: marshal players: %w", err)
	}
	if g.Result != nil {
		if a.result, err = json.Marshal(g.Result); err != nil {
			return a, fmt.Errorf("projections/postgres: marshal result: %w", err)
		}
	}
	a.toMove = make([]int32, len(g.ToMove))
	for i, s := range g.ToMove {
		a.toMove[i] = int32(s)
	}
	return a, nil
}

func queueInsertGame(b *pgx.Batch, g *projections.Game) error {
	a, err := argsOf(g)
	if err != nil {
		return err
	}
	b.Queue(`INSERT INTO games (id, game, rules_version, language, options, players, status, version, to_move,
		seed_hash, admin_token_hash, result, created_at, updated_at, finished_at, turn_deadline, reminder_before,
		timeout_policy, deadline_at, reminder_at, paused, extensions, away_policy)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
		g.ID, g.Game, g.RulesVersion, g.Language, g.Options, a.players, g.Status, g.Version, a.toMove,
		g.SeedHash, g.AdminHash, a.result, g.CreatedAt, g.UpdatedAt, g.FinishedAt, interval(g.TurnDeadline),
		interval(g.ReminderBefore), g.TimeoutPolicy, g.DeadlineAt, g.ReminderAt, g.Paused(), g.Extensions, awayPolicy(g))
	// The first snapshot, with the game's commitment key (migration 0093);
	// changesSQL, which follows, writes the later snapshots.
	b.Queue(`INSERT INTO game_states (game_id, version, state, commit_key) VALUES ($1, $2, $3, $4)`, g.ID, g.Version, g.State, keyBytes(g.CommitKey))
	return nil
}

// queueUpdateGame writes the projected columns of a rebuilt g and its
// state as the game's snapshot. The scheduler columns are left as they are
// when the version is unchanged.
func queueUpdateGame(b *pgx.Batch, g *projections.Game) error {
	a, err := argsOf(g)
	if err != nil {
		return err
	}
	b.Queue(`INSERT INTO game_states (game_id, version, state, commit_key) VALUES ($1, $2, $3, $4)
		ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state, commit_key = excluded.commit_key`,
		g.ID, g.Version, g.State, keyBytes(g.CommitKey))
	b.Queue(`UPDATE games SET game = $2, status = $3, version = $4, to_move = $5,
		awaited_since = awaited_since(to_move, awaited_since, $5, $4), result = $6,
		updated_at = $7, finished_at = $8, paused = $9, extensions = $10, rules_version = $11, language = $12,
		players = $13, deadline_at = CASE WHEN version = $4 THEN deadline_at ELSE $14 END,
		reminder_at = CASE WHEN version = $4 THEN reminder_at ELSE $15 END, options = $16, seed_hash = $17, created_at = $18, turn_deadline = $19,
		reminder_before = $20, timeout_policy = $21, away_policy = $22
		WHERE id = $1`,
		g.ID, g.Game, g.Status, g.Version, a.toMove, a.result, g.UpdatedAt, g.FinishedAt, g.Paused(),
		g.Extensions, g.RulesVersion, g.Language, a.players, g.DeadlineAt, g.ReminderAt, g.Options, g.SeedHash,
		g.CreatedAt, interval(g.TurnDeadline), interval(g.ReminderBefore), g.TimeoutPolicy, awayPolicy(g))
	return nil
}

// awayPolicy is g's away_policy column ("wait" for a row projected
// without one).
func awayPolicy(g *projections.Game) string {
	if g.AwayPolicy == "" {
		return "wait"
	}
	return g.AwayPolicy
}

// keyBytes is the commit_key column of a game's game_states row
// (migration 0093): NULL for
// a format-1 game.
func keyBytes(k *events.CommitKey) []byte {
	if k == nil {
		return nil
	}
	return k[:]
}

// changesSQL writes the projections of a batch's Changes (moves, admin
// actions, timeouts, creations) in one statement: $1..$12 one element per game for its row
// (to_move as an int[] literal, result as JSON or NULL, state NULL unless
// the Change takes a snapshot: then it goes to game_states), $13..$17
// one per remembered answer (the history is not stored: see
// projections.SeatHistory), $18 and $19 one per game for the your-turn
// emails it owes (outbox.TurnsJSON: what identifies each, not its payload; or NULL) and the first version of the
// moves it took back (0: none), which turn_mail (migration 0101) merges
// into the row's owed emails, giving their turn_due in the same pass
// (turn_mail_next, migrations 0104 and 0105). The row's awaited_since follows its
// to_move (awaited_next, 0104: a seat still awaited keeps its version).
// Both are set-returning SQL functions read in FROM, which PostgreSQL
// inlines into this statement: the scalar functions they replace ran an
// executor of their own for every row (0104's header has the figures). The final SELECT fails
// the statement unless every game row was there: the cast of a text that
// is not a number raises an error, and HAVING evaluates it only then. The
// check is in SQL because the statement may be sent with the COMMIT
// (events.Tx's Defer, sent by events/postgres's commitDeferred), where no
// Go code reads its rows before the commit. The "= ANY ($1)" conditions repeat the joins on u so that the
// plan reads the games and game_states rows through their primary keys: a
// generic plan does not know how few rows u has and would otherwise scan
// both tables. u casts to_move to int[] itself: Citus refuses the cast
// (a STABLE function) applied to a column inside the UPDATE (docs/SCALING.md).
const changesSQL = `WITH u AS (
	SELECT id, status, version, state, to_move::int[] AS to_move, result, updated_at, finished_at, paused, extensions, deadline_at, reminder_at,
		turns, cancel_from, (extract(epoch FROM now()) * 1000000)::bigint AS now_us
	FROM unnest($1::text[], $2::text[], $3::bigint[], $4::json[], $5::text[], $6::jsonb[],
		$7::timestamptz[], $8::timestamptz[], $9::bool[], $10::int[], $11::timestamptz[], $12::timestamptz[],
		$18::json[], $19::bigint[])
		AS u(id, status, version, state, to_move, result, updated_at, finished_at, paused, extensions, deadline_at, reminder_at,
			turns, cancel_from)
), g AS (
	UPDATE games SET status = u.status, version = u.version, to_move = u.to_move,
		awaited_since = (SELECT a.awaited_since FROM awaited_next(games.to_move, games.awaited_since, u.to_move, u.version) AS a),
		result = u.result, updated_at = u.updated_at, finished_at = u.finished_at, paused = u.paused,
		extensions = u.extensions, deadline_at = u.deadline_at, reminder_at = u.reminder_at,
		(turn_mail, turn_due) = (SELECT m.turn_mail, m.turn_due
			FROM turn_mail_next(games.turn_mail, u.to_move, u.turns, u.cancel_from, u.now_us) AS m)
	FROM u WHERE games.id = u.id AND games.id = ANY ($1::text[]) RETURNING 1
), snap AS (
	UPDATE game_states s SET version = u.version, state = u.state
	FROM u WHERE s.game_id = u.id AND s.game_id = ANY ($1::text[]) AND u.state IS NOT NULL
), req AS (
	INSERT INTO move_requests (game_id, seat, key, version, response)
	SELECT * FROM unnest($13::text[], $14::int[], $15::text[], $16::bigint[], $17::json[])
) SELECT ('projections/postgres: ' || count(*) || ' of ' || cardinality($1::text[]) || ' game rows updated')::int
	FROM g HAVING count(*) <> cardinality($1::text[])`

// queueChanges adds changesSQL for cs.
func queueChanges(b *pgx.Batch, cs []*projections.Change) error {
	n := len(cs)
	ids, status, states, toMove := make([]string, n), make([]string, n), make([]*string, n), make([]string, n)
	versions, results := make([]int64, n), make([]*string, n)
	updated, finished, deadline, reminder := make([]time.Time, n), make([]*time.Time, n), make([]*time.Time, n), make([]*time.Time, n)
	paused, ext := make([]bool, n), make([]int32, n)
	owed, cancel := make([][]byte, n), make([]int64, n)
	var mail []outbox.Row
	var err error
	var reqs []*projections.Request
	for i, c := range cs {
		g := c.Game
		ids[i], status[i], versions[i], toMove[i] = g.ID, g.Status, g.Version, intArray(g.ToMove)
		if g.StateVersion == g.Version && !c.Create { // a snapshot (a creation's is inserted with its row)
			states[i] = new(string(g.State))
		}
		if g.Result != nil {
			r, err := json.Marshal(g.Result)
			if err != nil {
				return fmt.Errorf("projections/postgres: marshal result: %w", err)
			}
			results[i] = new(string(r))
		}
		updated[i], finished[i], paused[i], ext[i] = g.UpdatedAt, g.FinishedAt, g.Paused(), int32(g.Extensions)
		deadline[i], reminder[i] = g.DeadlineAt, g.ReminderAt
		mail = append(mail, c.Outbox...)
		if owed[i], err = outbox.TurnsJSON(g.ID, c.Turns); err != nil {
			return fmt.Errorf("projections/postgres: %w", err)
		}
		for _, t := range c.TakenBack {
			if cancel[i] == 0 || t.From < cancel[i] {
				cancel[i] = t.From
			}
		}
		if c.Request != nil {
			reqs = append(reqs, c.Request)
		}
	}
	k := len(reqs)
	rGame, rSeat, rKey, rVersion, rResp := make([]string, k), make([]int32, k), make([]string, k), make([]int64, k), make([]string, k)
	for i, rq := range reqs {
		rGame[i], rSeat[i], rKey[i], rVersion[i], rResp[i] = rq.GameID, int32(rq.Seat), rq.Key, rq.Version, string(rq.Response)
	}
	for _, c := range cs {
		queueRecordTurns(b, c)
	}
	b.Queue(changesSQL, ids, status, versions, states, toMove, results, updated, finished, paused, ext, deadline, reminder,
		rGame, rSeat, rKey, rVersion, rResp, jsonArgs(owed), cancel)
	if len(mail) > 0 {
		sql, args, err := outbox.Insert(mail...)
		if err != nil {
			return fmt.Errorf("projections/postgres: %w", err)
		}
		b.Queue(sql, args...)
	}
	for _, c := range cs {
		queueCancelMail(b, c)
	}
	return nil
}

// jsonArgs passes JSON documents as a json[] argument, NULL for nil.
func jsonArgs(docs [][]byte) []*string {
	out := make([]*string, len(docs))
	for i, d := range docs {
		if d != nil {
			out[i] = new(string(d))
		}
	}
	return out
}

// intArray spells seats as a PostgreSQL int[] literal: to_move arrays of
// several games differ in length, which one two-dimensional array cannot hold.
func intArray(seats []int) string {
	b := make([]byte, 0, 2+4*len(seats))
	b = append(b, '{')
	for i, s := range seats {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	return string(append(b, '}'))
}
