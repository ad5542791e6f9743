package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/events"
	"pbem/projections"
)

// Save implements projections.Repository: it writes one append's Change in
// the append's transaction, as one batch (one round trip). When the store
// lets it (a deferrer), the batch goes with the store's COMMIT instead, in
// the same round trip.
func (r *Repo) Save(ctx context.Context, tx events.Tx, c *projections.Change) error {
	q, err := r.querierOf(tx)
	if err != nil {
		return err
	}
	d, _ := tx.(deferrer)
	g := c.Game
	if !c.Create && len(c.SeatTokens) == 0 {
		return saveMove(ctx, q, d, c)
	}
	b := &pgx.Batch{}
	if c.Create {
		if err := queueInsertGame(b, g); err != nil {
			return err
		}
		for _, s := range g.Seats {
			b.Queue(`INSERT INTO seats (game_id, seat, name, email, token_gen, token_hash) VALUES ($1, $2, $3, $4, $5, $6)`,
				g.ID, s.Seat, s.Name, s.Email, s.TokenGen, s.TokenHash)
		}
	} else if err := queueUpdateGame(b, g, false); err != nil {
		return err
	}
	for _, s := range c.SeatTokens {
		b.Queue(`UPDATE seats SET token_gen = $3, token_hash = $4 WHERE game_id = $1 AND seat = $2`,
			g.ID, s.Seat, s.TokenGen, s.TokenHash)
	}
	queueInbox(b, g)
	queueHistory(b, g.ID, c.History)
	for _, o := range c.Outbox {
		b.Queue(`INSERT INTO outbox (game_id, seat, kind, payload, event_version) VALUES ($1, $2, $3, $4, $5)`,
			o.GameID, o.Seat, o.Kind, o.Payload, o.EventVersion)
	}
	if rq := c.Request; rq != nil {
		b.Queue(`INSERT INTO move_requests (game_id, seat, key, version, response) VALUES ($1, $2, $3, $4, $5)`,
			rq.GameID, rq.Seat, rq.Key, rq.Version, rq.Response)
	}
	if d != nil {
		for _, qq := range b.QueuedQueries {
			d.Defer(qq.SQL, qq.Arguments...)
		}
		return nil
	}
	if err := q.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("projections/postgres: save %s v%d: %w", g.ID, g.Version, err)
	}
	return nil
}

// deferrer is what the Postgres event store's transaction offers to send a
// statement with its COMMIT (events/postgres.Deferrer).
type deferrer interface {
	Defer(sql string, args ...any)
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
	b.Queue(`INSERT INTO games (id, game, rules_version, language, options, players, status, version, state, to_move,
		seed_hash, admin_token_hash, result, created_at, updated_at, finished_at, turn_deadline, reminder_before,
		timeout_policy, deadline_at, reminder_at, paused, extensions)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)`,
		g.ID, g.Game, g.RulesVersion, g.Language, g.Options, a.players, g.Status, g.Version, g.State, a.toMove,
		g.SeedHash, g.AdminHash, a.result, g.CreatedAt, g.UpdatedAt, g.FinishedAt, interval(g.TurnDeadline),
		interval(g.ReminderBefore), g.TimeoutPolicy, g.DeadlineAt, g.ReminderAt, g.Paused(), g.Extensions)
	return nil
}

// queueUpdateGame writes the projected columns of g. With keepSchedule
// (rebuild), the scheduler columns are left as they are.
func queueUpdateGame(b *pgx.Batch, g *projections.Game, keepSchedule bool) error {
	a, err := argsOf(g)
	if err != nil {
		return err
	}
	sched := `, deadline_at = $15, reminder_at = $16`
	if keepSchedule {
		sched = `, deadline_at = CASE WHEN version = $4 THEN deadline_at ELSE $15 END,
			reminder_at = CASE WHEN version = $4 THEN reminder_at ELSE $16 END`
	}
	b.Queue(`UPDATE games SET game = $2, status = $3, version = $4, state = $5, to_move = $6, result = $7,
		updated_at = $8, finished_at = $9, paused = $10, extensions = $11, rules_version = $12, language = $13,
		players = $14`+sched+`, options = $17, seed_hash = $18, created_at = $19, turn_deadline = $20,
		reminder_before = $21, timeout_policy = $22
		WHERE id = $1`,
		g.ID, g.Game, g.Status, g.Version, g.State, a.toMove, a.result, g.UpdatedAt, g.FinishedAt, g.Paused(),
		g.Extensions, g.RulesVersion, g.Language, a.players, g.DeadlineAt, g.ReminderAt, g.Options, g.SeedHash,
		g.CreatedAt, interval(g.TurnDeadline), interval(g.ReminderBefore), g.TimeoutPolicy)
	return nil
}

func queueInbox(b *pgx.Batch, g *projections.Game) {
	seats := make([]int32, len(g.ToMove))
	for i, s := range g.ToMove {
		seats[i] = int32(s)
	}
	b.Queue(`WITH gone AS (DELETE FROM inbox WHERE game_id = $1 AND NOT (seat = ANY ($2)))
		INSERT INTO inbox (game_id, seat, version) SELECT $1, unnest($2::int[]), $3
		ON CONFLICT DO NOTHING`, g.ID, seats, g.Version)
}

func queueHistory(b *pgx.Batch, id string, rows []projections.HistoryRow) {
	if len(rows) == 0 {
		return
	}
	h := historyArgs(rows)
	b.Queue(`INSERT INTO history (game_id, version, seat, type, actor, data, summary, hash, prev_hash, recorded_at)
		SELECT $1, * FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[], $6::json[], $7::text[],
			$8::bytea[], $9::bytea[], $10::timestamptz[])`,
		id, h.version, h.seat, h.typ, h.actor, h.data, h.summary, h.hash, h.prev, h.at)
}

// moveSQL writes the projections of an ordinary append (a move, an admin
// action) in one statement: the game row, the inbox, the history and the
// outbox rows, and optionally a remembered answer.
const moveSQL = `WITH g AS (
	UPDATE games SET status = $2, version = $3, state = $4, to_move = $5, result = $6, updated_at = $7,
		finished_at = $8, paused = $9, extensions = $10, deadline_at = $11, reminder_at = $12
	WHERE id = $1 RETURNING 1
), gone AS (
	DELETE FROM inbox WHERE game_id = $1 AND NOT (seat = ANY ($5))
), waiting AS (
	INSERT INTO inbox (game_id, seat, version) SELECT $1, unnest($5::int[]), $3 ON CONFLICT DO NOTHING
), hist AS (
	INSERT INTO history (game_id, version, seat, type, actor, data, summary, hash, prev_hash, recorded_at)
	SELECT $1, * FROM unnest($13::bigint[], $14::int[], $15::text[], $16::text[], $17::json[], $18::text[],
		$19::bytea[], $20::bytea[], $21::timestamptz[])
), mail AS (
	INSERT INTO outbox (game_id, seat, kind, payload, event_version)
	SELECT $1, * FROM unnest($22::int[], $23::text[], $24::jsonb[], $25::bigint[])
)`

// moveSQLEnd fails the statement when the game row is missing (impossible
// unless the projections were damaged): the cast of a text that is not a
// number raises an error, and HAVING evaluates it only then. The check is in
// SQL because the statement may be sent with the COMMIT (see deferrer).
const moveSQLEnd = ` SELECT ('projections/postgres: no game row for this move (' || count(*) || ' updated)')::int
	FROM g HAVING count(*) <> 1`

const moveSQLRequest = `, req AS (
	INSERT INTO move_requests (game_id, seat, key, version, response) VALUES ($1, $26, $27, $28, $29)
)`

func saveMove(ctx context.Context, q querier, d deferrer, c *projections.Change) error {
	g := c.Game
	a, err := argsOf(g)
	if err != nil {
		return err
	}
	h := historyArgs(c.History)
	n := len(c.Outbox)
	oSeat, oKind, oPayload, oVersion := make([]*int32, n), make([]string, n), make([]string, n), make([]int64, n)
	for i, o := range c.Outbox {
		if o.Seat != nil {
			s := int32(*o.Seat)
			oSeat[i] = &s
		}
		oKind[i], oPayload[i], oVersion[i] = o.Kind, string(o.Payload), o.EventVersion
	}
	args := []any{g.ID, g.Status, g.Version, g.State, a.toMove, a.result, g.UpdatedAt, g.FinishedAt, g.Paused(),
		g.Extensions, g.DeadlineAt, g.ReminderAt,
		h.version, h.seat, h.typ, h.actor, h.data, h.summary, h.hash, h.prev, h.at,
		oSeat, oKind, oPayload, oVersion}
	sql := moveSQL + moveSQLEnd
	if rq := c.Request; rq != nil {
		sql = moveSQL + moveSQLRequest + moveSQLEnd
		args = append(args, rq.Seat, rq.Key, rq.Version, string(rq.Response))
	}
	if d != nil {
		d.Defer(sql, args...)
		return nil
	}
	if _, err := q.Exec(ctx, sql, args...); err != nil {
		return fmt.Errorf("projections/postgres: save %s v%d: %w", g.ID, g.Version, err)
	}
	return nil
}

type histArgs struct {
	version                   []int64
	seat                      []int32
	typ, actor, summary, data []string
	hash, prev                [][]byte
	at                        []time.Time
}

func historyArgs(rows []projections.HistoryRow) histArgs {
	n := len(rows)
	h := histArgs{version: make([]int64, n), seat: make([]int32, n), typ: make([]string, n), actor: make([]string, n),
		summary: make([]string, n), data: make([]string, n), hash: make([][]byte, n), prev: make([][]byte, n),
		at: make([]time.Time, n)}
	for i, r := range rows {
		h.version[i], h.seat[i], h.typ[i], h.actor[i], h.summary[i], h.data[i] = r.Version, int32(r.Seat), r.Type, r.Actor, r.Summary, string(r.Data)
		h.hash[i], h.prev[i], h.at[i] = r.Hash, r.PrevHash, r.RecordedAt
	}
	return h
}
