package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/events/play"
	"pbem/projections/outbox"
)

// Deadlines is the scheduler's SQL over the games and seats tables of
// migration 0002 (play.DeadlineStore): the games due to time out, and the
// reminders before their deadlines.
type Deadlines struct{ pool *pgxpool.Pool }

var _ play.DeadlineStore = (*Deadlines)(nil)

// NewDeadlines returns a Deadlines on pool.
func NewDeadlines(pool *pgxpool.Pool) *Deadlines { return &Deadlines{pool: pool} }

// DueDeadlines implements play.DeadlineStore. It reads the active games
// through the partial index games_active and filters deadline_at in the
// heap (no index keys deadline_at, which every move changes: migration
// 0081). It holds no row: the service times a game out at the version it
// reads (Service.Timeout), so a game two schedulers list is timed out once,
// the other append losing on the version. A lock over the due games of
// every game (FOR UPDATE SKIP LOCKED, as this read had) is what Citus
// refuses across shards (docs/SCALING.md, "What Citus refused"); it was
// held only while the list was read, so it kept no scheduler from another.
func (d *Deadlines) DueDeadlines(ctx context.Context, now time.Time, limit int) ([]play.DueGame, error) {
	rows, err := d.pool.Query(ctx, `SELECT id, version, to_move FROM games
WHERE status IN ('active', 'muster') AND deadline_at <= $1
ORDER BY deadline_at LIMIT $2`, now, limit)
	if err != nil {
		return nil, fmt.Errorf("play/postgres: due deadlines: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanDue)
	if err != nil {
		return nil, fmt.Errorf("play/postgres: due deadlines: %w", err)
	}
	return out, nil
}

// scanDue reads a row of id, version and seats into a DueGame.
func scanDue(r pgx.CollectableRow) (play.DueGame, error) {
	var g play.DueGame
	var seats []int32
	err := r.Scan(&g.ID, &g.Version, &seats)
	for _, s := range seats {
		g.ToMove = append(g.ToMove, int(s))
	}
	return g, err
}

// dueReminder is the condition of a game owed a reminder at $1: active,
// its reminder time passed, not reminded for its current deadline.
const dueReminder = `g.status = 'active' AND g.reminder_at <= $1 AND (g.reminded_version IS NULL OR g.reminded_version < g.version)`

// DueReminders implements play.DeadlineStore: the games owed a reminder
// at now, with their awaited seats that read email (a bot's seat gets
// none), oldest reminder time first. It holds no row.
func (d *Deadlines) DueReminders(ctx context.Context, now time.Time, limit int) ([]play.DueGame, error) {
	rows, err := d.pool.Query(ctx, `SELECT g.id, g.version,
    ARRAY(SELECT s.seat FROM seats s WHERE s.game_id = g.id AND s.bot IS NULL AND s.seat = ANY (g.to_move) ORDER BY s.seat)
FROM games g WHERE `+dueReminder+`
ORDER BY g.reminder_at LIMIT $2`, now, limit)
	if err != nil {
		return nil, fmt.Errorf("play/postgres: due reminders: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanDue)
	if err != nil {
		return nil, fmt.Errorf("play/postgres: due reminders: %w", err)
	}
	return out, nil
}

// DueBacks implements play.DeadlineStore: the seats whose away_until
// (migration 0102, through its partial index) has come, in games going on.
func (d *Deadlines) DueBacks(ctx context.Context, now time.Time, limit int) ([]play.DueBack, error) {
	rows, err := d.pool.Query(ctx, `SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id
WHERE s.away_until IS NOT NULL AND s.away_until <= $1 AND g.status IN ('active', 'paused')
ORDER BY s.away_until LIMIT $2`, now, limit)
	if err != nil {
		return nil, fmt.Errorf("play/postgres: due backs: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.DueBack, error) {
		var b play.DueBack
		return b, r.Scan(&b.GameID, &b.Seat)
	})
	if err != nil {
		return nil, fmt.Errorf("play/postgres: due backs: %w", err)
	}
	return out, nil
}

// gameRow is what a reminder needs of a game.
type gameRow struct {
	id, name, lang string
	players        []string
	bots           []string // by seat, "" for a person (the email marks bots)
	version        int64
	toMove         []int
	deadline       *time.Time
	// policy is the game's timeout policy (a reminder says what the
	// deadline does).
	policy string
}

type seatRow struct {
	seat     int
	name     string
	email    string
	tokenGen int
	lang     string // the seat's own language, "" for the game's
	bot      string // the bot that plays the seat, "" for a person
}

func scanGame(r pgx.Row) (gameRow, error) {
	var g gameRow
	var players []byte
	var toMove []int32
	if err := r.Scan(&g.id, &g.name, &g.lang, &players, &g.version, &toMove, &g.deadline, &g.policy); err != nil {
		return g, err
	}
	for _, s := range toMove {
		g.toMove = append(g.toMove, int(s))
	}
	return g, json.Unmarshal(players, &g.players)
}

const gameCols = `g.id, g.game, g.language, g.players, g.version, g.to_move, g.deadline_at, g.timeout_policy`

// seatsOf lists the seats of games ids, by game and seat.
func seatsOf(ctx context.Context, tx pgx.Tx, ids []string) (map[string][]seatRow, error) {
	rows, err := tx.Query(ctx, `SELECT game_id, seat, name, email, token_gen, language, coalesce(bot, '') FROM seats WHERE game_id = ANY($1) ORDER BY game_id, seat`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]seatRow{}
	for rows.Next() {
		var id string
		var s seatRow
		if err := rows.Scan(&id, &s.seat, &s.name, &s.email, &s.tokenGen, &s.lang, &s.bot); err != nil {
			return nil, err
		}
		out[id] = append(out[id], s)
	}
	return out, rows.Err()
}

func (g gameRow) payload(s seatRow, lines []string) outbox.Payload {
	lang := g.lang
	if s.lang != "" {
		lang = s.lang // the reader's (issue #31)
	}
	return outbox.NewPayload(outbox.Head{
		To:       outbox.Recipient{Seat: s.seat, Name: s.name, Email: s.email},
		Language: lang,
		Game:     outbox.GameInfo{ID: g.id, Name: g.name, Players: g.players, Bots: g.bots},
		TokenGen: s.tokenGen,
		Version:  g.version,
		Deadline: g.deadline,
		Lines:    lines,
	})
}

// remindSQL marks reminded the games of $2 that are still due at $1 and
// still at the versions they were found at ($3, by place in $2), and
// returns them. It is the claim of the reminders: a game another
// scheduler reminded meanwhile, or that a move took on, no longer
// qualifies (the update waits for that transaction and checks again), so
// each game is reminded once, with no lock taken over the games of many
// shards first (FOR UPDATE SKIP LOCKED, which Citus refuses; see
// docs/SCALING.md).
const remindSQL = `UPDATE games g SET reminded_version = g.version, reminder_at = NULL
WHERE g.id = ANY ($2::text[]) AND ` + dueReminder + `
  AND g.version = ($3::bigint[])[array_position($2::text[], g.id)]
RETURNING ` + gameCols

// Remind implements play.DeadlineStore. A game is reminded once per
// deadline: the reminder sets reminded_version to the game's version and
// clears reminder_at, which the game service sets again only with a new
// deadline (a move that keeps the same seat awaited keeps it cleared). A
// game that moved on since it was found due is left for the next tick,
// which reads its moves again. The games are taken by remindSQL and their
// reminders written in the same transaction.
func (d *Deadlines) Remind(ctx context.Context, now time.Time, due []play.Reminder) (int, error) {
	if len(due) == 0 {
		return 0, nil
	}
	found := make(map[string]play.Reminder, len(due))
	ids, versions := make([]string, 0, len(due)), make([]int64, 0, len(due))
	for _, r := range due {
		found[r.ID] = r
		ids, versions = append(ids, r.ID), append(versions, r.Version)
	}
	n := 0
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, remindSQL, now, ids, versions)
		if err != nil {
			return err
		}
		games, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (gameRow, error) { return scanGame(r) })
		if err != nil || len(games) == 0 {
			return err
		}
		taken := make([]string, len(games))
		for i, g := range games {
			taken[i] = g.id
		}
		seats, err := seatsOf(ctx, tx, taken)
		if err != nil {
			return err
		}
		var out []outbox.Row
		for _, g := range games {
			for _, s := range seats[g.id] {
				g.bots = append(g.bots, s.bot)
			}
			for _, s := range seats[g.id] {
				if s.bot == "" && slices.Contains(g.toMove, s.seat) {
					p := g.payload(s, nil)
					p.Awaited, p.Policy = true, g.policy
					if m, ok := found[g.id].Moves[s.seat]; ok {
						p.Moves, p.Choice = m.Labels, m.Choice
					}
					out = append(out, outbox.Row{GameID: g.id, Seat: &s.seat, Kind: outbox.Reminder, Payload: p, EventVersion: g.version, At: now})
				}
			}
		}
		if len(out) > 0 {
			sql, args, err := outbox.Insert(out...)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, sql, args...); err != nil {
				return err
			}
		}
		n = len(games)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("play/postgres: reminders: %w", err)
	}
	return n, nil
}
