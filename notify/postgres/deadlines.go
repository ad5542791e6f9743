package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"pbem/engine"
	"pbem/events/pbemevent"
	evpg "pbem/events/postgres"
	"pbem/notify"
	"pbem/projections"
	"pbem/projections/outbox"
)

// Deadlines is the scheduler's SQL over the games and seats tables
// of migration 0002, and mail_prefs / mail_digests of 0003; the digests'
// table talk is told from the events (Histories).
type Deadlines struct {
	pool      *pgxpool.Pool
	histories Histories
	moves     SeatMoves // nil: reminders number no moves
}

var _ notify.DeadlineStore = (*Deadlines)(nil)

// NewDeadlines returns a Deadlines on pool; h tells the digests' table
// talk.
func NewDeadlines(pool *pgxpool.Pool, h Histories) *Deadlines {
	return &Deadlines{pool: pool, histories: h}
}

// DueDeadlines implements notify.DeadlineStore. It reads the active games
// through the partial index games_active and filters deadline_at in the
// heap (no index keys deadline_at, which every move changes: migration
// 0081); SKIP LOCKED lets schedulers of other processes take other games
// meanwhile.
func (d *Deadlines) DueDeadlines(ctx context.Context, now time.Time, limit int) ([]notify.DueGame, error) {
	var out []notify.DueGame
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, version, to_move FROM games
WHERE status = 'active' AND deadline_at <= $1
ORDER BY deadline_at LIMIT $2 FOR UPDATE SKIP LOCKED`, now, limit)
		if err != nil {
			return err
		}
		out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (notify.DueGame, error) {
			var g notify.DueGame
			var toMove []int32
			err := r.Scan(&g.ID, &g.Version, &toMove)
			for _, s := range toMove {
				g.ToMove = append(g.ToMove, int(s))
			}
			return g, err
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("notify/postgres: due deadlines: %w", err)
	}
	return out, nil
}

// gameRow is what an email needs of a game.
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
}

func scanGame(r pgx.Row) (gameRow, error) {
	var g gameRow
	var players []byte
	var toMove []int32
	if err := r.Scan(&g.id, &g.name, &g.lang, &players, &g.version, &toMove, &g.deadline, &g.policy, &g.bots); err != nil {
		return g, err
	}
	for _, s := range toMove {
		g.toMove = append(g.toMove, int(s))
	}
	return g, json.Unmarshal(players, &g.players)
}

const gameCols = `g.id, g.game, g.language, g.players, g.version, g.to_move, g.deadline_at, g.timeout_policy,
    ARRAY(SELECT coalesce(b.bot, '') FROM seats b WHERE b.game_id = g.id ORDER BY b.seat)`

// seatsOf lists the seats of games ids that read email: a bot's seat
// (seats.bot) gets none.
func seatsOf(ctx context.Context, tx pgx.Tx, ids []string) (map[string][]seatRow, error) {
	rows, err := tx.Query(ctx, `SELECT game_id, seat, name, email, token_gen, language FROM seats WHERE game_id = ANY($1) AND bot IS NULL ORDER BY game_id, seat`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]seatRow{}
	for rows.Next() {
		var id string
		var s seatRow
		if err := rows.Scan(&id, &s.seat, &s.name, &s.email, &s.tokenGen, &s.lang); err != nil {
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

// Remind implements notify.DeadlineStore. A game is reminded once per
// deadline: the reminder sets reminded_version to the game's version and
// clears reminder_at, which the game service sets again only with a new
// deadline (a move that keeps the same seat awaited keeps it cleared).
func (d *Deadlines) Remind(ctx context.Context, now time.Time, limit int) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+gameCols+` FROM games g
WHERE g.status = 'active' AND g.reminder_at <= $1 AND (g.reminded_version IS NULL OR g.reminded_version < g.version)
ORDER BY g.reminder_at LIMIT $2 FOR UPDATE SKIP LOCKED`, now, limit)
		if err != nil {
			return err
		}
		games, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (gameRow, error) { return scanGame(r) })
		if err != nil || len(games) == 0 {
			return err
		}
		ids := make([]string, len(games))
		for i, g := range games {
			ids[i] = g.id
		}
		seats, err := seatsOf(ctx, tx, ids)
		if err != nil {
			return err
		}
		var out []outbox.Row
		for _, g := range games {
			for _, s := range seats[g.id] {
				if slices.Contains(g.toMove, s.seat) {
					p := g.payload(s, nil)
					p.Awaited, p.Policy = true, g.policy
					if d.moves != nil {
						if p.Moves, p.Choice, err = d.moves.SeatMoves(ctx, g.id, s.seat); err != nil {
							return err
						}
					}
					out = append(out, outbox.Row{GameID: g.id, Seat: &s.seat, Kind: outbox.Reminder, Payload: p, EventVersion: g.version, At: now})
				}
			}
		}
		if err := insertRows(ctx, tx, out); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET reminded_version = version, reminder_at = NULL WHERE id = ANY($1)`, ids); err != nil {
			return err
		}
		n = len(games)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("notify/postgres: reminders: %w", err)
	}
	return n, nil
}

// SeatMoves lists a seat's legal moves now as an email numbers them, and
// the tag of the list (the game service implements it: events/play).
type SeatMoves interface {
	SeatMoves(ctx context.Context, id string, seat int) (labels []string, choice string, err error)
}

// WithMoves makes the reminders d writes number the seat's moves, read
// from m, so that a reminder can be answered with a number.
func (d *Deadlines) WithMoves(m SeatMoves) *Deadlines {
	d.moves = m
	return d
}

// Digests implements notify.DeadlineStore. The mail_digests primary key
// (email, day) makes two processes agree on who writes a digest.
func (d *Deadlines) Digests(ctx context.Context, now time.Time, hour int) (int, error) {
	now = now.UTC()
	if now.Hour() < hour {
		return 0, nil
	}
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	n := 0
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `INSERT INTO mail_digests (email, day, created_at)
SELECT p.email, $1, $2 FROM mail_prefs p
WHERE p.mode = 'digest' AND EXISTS (
    SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id AND g.status = 'active' AND s.seat = ANY (g.to_move)
    WHERE lower(s.email) = p.email AND s.bot IS NULL)
ON CONFLICT (email, day) DO NOTHING
RETURNING email`, day, now)
		if err != nil {
			return err
		}
		emails, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, e := range emails {
			p, err := d.waitingFor(ctx, tx, e, now)
			if err != nil {
				return err
			}
			var id int64
			sql, args, err := outbox.Insert(outbox.Row{Kind: outbox.Digest, Payload: p, At: now})
			if err != nil {
				return err
			}
			if err := tx.QueryRow(ctx, sql, args...).Scan(&id); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE mail_digests SET outbox_id = $1 WHERE email = $2 AND day = $3`, id, e, day); err != nil {
				return err
			}
		}
		n = len(emails)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("notify/postgres: digests: %w", err)
	}
	return n, nil
}

// waitingFor builds the digest payload of an address: the active games
// awaiting one of its seats, soonest deadline first, each with its table
// talk of the last day. A seat a bot plays for its person awaits nothing
// of the person (issue #43): it is no entry, as it writes no digest.
func (d *Deadlines) waitingFor(ctx context.Context, tx pgx.Tx, email string, now time.Time) (outbox.Payload, error) {
	p := outbox.NewPayload(outbox.Head{To: outbox.Recipient{Seat: -1, Email: email}, Language: "en"})
	rows, err := tx.Query(ctx, `SELECT g.id, g.game, coalesce(nullif(s.language, ''), g.language), g.players, g.deadline_at, s.seat, s.name, s.email, s.token_gen, g.version,
    ARRAY(SELECT coalesce(b.bot, '') FROM seats b WHERE b.game_id = g.id ORDER BY b.seat)
FROM seats s JOIN games g ON g.id = s.game_id AND g.status = 'active' AND s.seat = ANY (g.to_move)
WHERE lower(s.email) = $1 AND s.bot IS NULL ORDER BY g.deadline_at NULLS LAST, g.id`, strings.ToLower(email))
	if err != nil {
		return p, err
	}
	defer rows.Close()
	var games []projections.Game // each game as its table talk is told
	for rows.Next() {
		var w outbox.WaitingGame
		var lang, name, addr string
		var players []byte
		var version int64
		var bots []string
		if err := rows.Scan(&w.Game.ID, &w.Game.Name, &lang, &players, &w.Deadline, &w.Seat, &name, &addr, &w.TokenGen, &version, &bots); err != nil {
			return p, err
		}
		if slices.ContainsFunc(bots, func(b string) bool { return b != "" }) {
			w.Game.Bots = bots // the digest marks bots as every email does
		}
		if err := json.Unmarshal(players, &w.Game.Players); err != nil {
			return p, err
		}
		games = append(games, projections.Game{ID: w.Game.ID, Game: w.Game.Name, Language: lang, Players: w.Game.Players, Version: version})
		if len(p.Games) == 0 {
			p.Language, p.To.Name, p.To.Email = lang, name, addr
		}
		p.Games = append(p.Games, w)
	}
	if err := rows.Err(); err != nil {
		return p, err
	}
	rows.Close()
	for i := range p.Games {
		chat, err := d.digestChat(ctx, tx, &games[i], now)
		if err != nil {
			return p, err
		}
		p.Games[i].Chat = chat
	}
	return p, nil
}

// digestChat returns game g's table talk of the day before now (at most
// the last 10 lines), as the public history tells it.
func (d *Deadlines) digestChat(ctx context.Context, tx pgx.Tx, g *projections.Game, now time.Time) ([]string, error) {
	since := now.Add(-24 * time.Hour)
	from, err := evpg.FirstOfLast(ctx, tx, g.ID, pbemevent.TypeChat, since, 10)
	if err != nil || from == 0 {
		return nil, err
	}
	hist, _, err := d.histories.seat(ctx, g, engine.Spectator, from-1)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range hist {
		if h.Type == pbemevent.TypeChat && h.RecordedAt.After(since) {
			out = append(out, h.Summary)
		}
	}
	return out[max(0, len(out)-10):], nil
}
