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
	"pbem/projections"
	"pbem/projections/outbox"
)

// Digester writes the daily digests (play.Digester, which the scheduler
// calls): its SQL over the games, seats, mail_prefs and mail_digests
// tables of migrations 0002 and 0003; the digests' table talk is told from
// the events (Histories).
type Digester struct {
	pool      *pgxpool.Pool
	histories Histories
}

// NewDigester returns a Digester on pool; h tells the digests' table talk.
func NewDigester(pool *pgxpool.Pool, h Histories) *Digester {
	return &Digester{pool: pool, histories: h}
}

// digestsSQL writes the day's digest row ($1 the day, $2 now) of each
// address with the digest preference and an awaited seat of a person in
// a game going on, and returns the addresses it wrote. A join, not a
// correlated EXISTS from mail_prefs: Citus refuses a correlated subquery
// beside a reference table in FROM (docs/SCALING.md, "What Citus
// refused"); plain PostgreSQL plans both as lookups of each address's
// seats through seats_email.
const digestsSQL = `INSERT INTO mail_digests (email, day, created_at)
SELECT DISTINCT p.email, $1::date, $2::timestamptz FROM mail_prefs p
JOIN seats s ON lower(s.email) = p.email AND s.bot IS NULL
JOIN games g ON g.id = s.game_id AND g.status = 'active' AND s.seat = ANY (g.to_move)
WHERE p.mode = 'digest'
ON CONFLICT (email, day) DO NOTHING
RETURNING email`

// Digests writes the daily digest rows due at now (one per address with
// the digest preference and games waiting, once per UTC day, from hour
// o'clock UTC on) and returns how many it wrote. The mail_digests primary key
// (email, day) makes two processes agree on who writes a digest.
func (d *Digester) Digests(ctx context.Context, now time.Time, hour int) (int, error) {
	now = now.UTC()
	if now.Hour() < hour {
		return 0, nil
	}
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	n := 0
	err := pgx.BeginFunc(ctx, d.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, digestsSQL, day, now)
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
func (d *Digester) waitingFor(ctx context.Context, tx pgx.Tx, email string, now time.Time) (outbox.Payload, error) {
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
func (d *Digester) digestChat(ctx context.Context, tx pgx.Tx, g *projections.Game, now time.Time) ([]string, error) {
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
