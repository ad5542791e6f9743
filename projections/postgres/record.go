package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"pbem/projections"
)

// The SQL of the records read model (projections.RecordStore): the stints
// of ended games, the ratings, and the leaderboard choices.

var _ projections.RecordStore = (*Repo)(nil)

// recordsLock is the advisory lock key under which SaveStints and Rerate
// read and write the stints and ratings (lockRecords).
const recordsLock = 46046046

// StaleRecords implements projections.RecordStore.
func (r *Repo) StaleRecords(ctx context.Context, limit int) ([]string, error) {
	rows, err := r.pool.Query(ctx, `SELECT g.id FROM games g LEFT JOIN record_games rg ON rg.game_id = g.id
		WHERE g.status IN ('finished', 'aborted') AND (rg.version IS NULL OR rg.version <> g.version)
		ORDER BY g.id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: stale records: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: stale records: %w", err)
	}
	return ids, nil
}

// SaveStints implements projections.RecordStore.
func (r *Repo) SaveStints(ctx context.Context, games []projections.FoldedGame, rate projections.Rater) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if err := lockRecords(ctx, tx); err != nil {
			return err
		}
		ids := make([]string, len(games))
		for i, g := range games {
			ids[i] = g.ID
		}
		var stored bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM record_games WHERE game_id = ANY($1))`, ids).Scan(&stored); err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, g := range games {
			b.Queue(`INSERT INTO record_games (game_id, version) VALUES ($1, $2)
				ON CONFLICT (game_id) DO UPDATE SET version = excluded.version`, g.ID, g.Version)
			b.Queue(`DELETE FROM seat_records WHERE game_id = $1`, g.ID)
			for _, s := range g.Stints {
				b.Queue(`INSERT INTO seat_records (game_id, seat, stint, game, name, email, bot, outcome, handed, place,
					timed_out, move_ms, ended_at, muster) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
					g.ID, s.Seat, s.Stint, s.Game, s.Name, strings.ToLower(s.Email), s.Bot, s.Outcome, s.Handed, s.Place,
					s.TimedOut, s.MoveMillis, s.EndedAt, s.Muster)
			}
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		return rateSaved(ctx, tx, ids, stored, rate)
	})
	if err != nil {
		return fmt.Errorf("projections/postgres: save stints of %d games: %w", len(games), err)
	}
	return nil
}

// stintColumns are the columns scanStint reads, in its order.
const stintColumns = `game_id, seat, stint, game, name, email, bot, outcome, handed, place, timed_out, move_ms, ended_at, muster`

// scanStint reads a seat_records row of stintColumns.
func scanStint(row pgx.CollectableRow) (projections.Stint, error) {
	var s projections.Stint
	var ended *time.Time
	err := row.Scan(&s.GameID, &s.Seat, &s.Stint, &s.Game, &s.Name, &s.Email, &s.Bot, &s.Outcome, &s.Handed, &s.Place,
		&s.TimedOut, &s.MoveMillis, &ended, &s.Muster)
	if ended != nil {
		t := ended.UTC()
		s.EndedAt = &t
	}
	if s.MoveMillis == nil {
		s.MoveMillis = []int64{}
	}
	return s, err
}

// GameStints implements projections.RecordStore.
func (r *Repo) GameStints(ctx context.Context, id string) ([]projections.Stint, int64, error) {
	var version int64
	err := r.pool.QueryRow(ctx, `SELECT version FROM record_games WHERE game_id = $1`, id).Scan(&version)
	if err == pgx.ErrNoRows {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("projections/postgres: stints of %s: %w", id, err)
	}
	rows, err := r.pool.Query(ctx, `SELECT `+stintColumns+` FROM seat_records WHERE game_id = $1 ORDER BY seat, stint`, id)
	if err != nil {
		return nil, 0, fmt.Errorf("projections/postgres: stints of %s: %w", id, err)
	}
	out, err := pgx.CollectRows(rows, scanStint)
	if err != nil {
		return nil, 0, fmt.Errorf("projections/postgres: stints of %s: %w", id, err)
	}
	return out, version, nil
}

// RecordedGames implements projections.RecordStore.
func (r *Repo) RecordedGames(ctx context.Context) ([]string, error) {
	rows, err := r.pool.Query(ctx, `SELECT game_id FROM record_games ORDER BY game_id`)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: recorded games: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: recorded games: %w", err)
	}
	return ids, nil
}

// StintsOf implements projections.RecordStore.
func (r *Repo) StintsOf(ctx context.Context, email string) ([]projections.Stint, error) {
	rows, err := r.pool.Query(ctx, `SELECT `+stintColumns+` FROM seat_records WHERE email = lower($1) AND email <> ''
		ORDER BY game_id, seat, stint`, email)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: stints of an address: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanStint)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: stints of an address: %w", err)
	}
	return out, nil
}

// ActiveGamesOf implements projections.RecordStore.
func (r *Repo) ActiveGamesOf(ctx context.Context, email string) ([]string, error) {
	rows, err := r.pool.Query(ctx, `SELECT g.id FROM games g WHERE g.status IN ('active', 'paused') AND (
			g.id IN (SELECT s.game_id FROM seats s WHERE lower(s.email) = lower($1))
			OR (g.former IS NOT NULL AND EXISTS (SELECT 1 FROM jsonb_array_elements(g.former) f
				WHERE lower(f->>'email') = lower($1))))
		ORDER BY g.id`, email)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: active games of an address: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: active games of an address: %w", err)
	}
	return ids, nil
}

// Rerate implements projections.RecordStore.
func (r *Repo) Rerate(ctx context.Context, rate projections.Rater) error {
	err := pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		if err := lockRecords(ctx, tx); err != nil {
			return err
		}
		return rerate(ctx, tx, rate)
	})
	if err != nil {
		return fmt.Errorf("projections/postgres: rerate: %w", err)
	}
	return nil
}

// ratedStintsSQL reads the stints the ratings come from, in the order
// rate takes them.
const ratedStintsSQL = `SELECT ` + stintColumns + ` FROM seat_records WHERE outcome = 'finished'
	ORDER BY ended_at, game_id, seat, stint`

// lockRecords takes recordsLock for the rest of tx: the writers of the
// stints and ratings (SaveStints, Rerate) go one after the other.
func lockRecords(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, recordsLock)
	return err
}

// rerate computes every rating again with rate, in tx (which holds
// recordsLock), from the stints of ratedStintsSQL.
func rerate(ctx context.Context, tx pgx.Tx, rate projections.Rater) error {
	rows, err := tx.Query(ctx, ratedStintsSQL)
	if err != nil {
		return err
	}
	stints, err := pgx.CollectRows(rows, scanStint)
	if err != nil {
		return err
	}
	ratings, changes := rate(nil, stints)
	return saveRatings(ctx, tx, ratings, changes)
}

// ratingColumns are the columns scanRating reads, in its order.
const ratingColumns = `game, player, name, bot, rating, rd, volatility, games`

func scanRating(row pgx.CollectableRow) (projections.Rating, error) {
	var x projections.Rating
	err := row.Scan(&x.Game, &x.Player, &x.Name, &x.Bot, &x.Rating, &x.RD, &x.Volatility, &x.Games)
	return x, err
}

// changeColumns are the columns scanChange reads, in its order.
const changeColumns = `game_id, seat, player, name, bot, rating_before, rd_before, vol_before, rating_after, rd_after, vol_after`

func scanChange(row pgx.CollectableRow) (projections.RatingChange, error) {
	var c projections.RatingChange
	err := row.Scan(&c.GameID, &c.Seat, &c.Player, &c.Name, &c.Bot, &c.Before.R, &c.Before.RD, &c.Before.Vol,
		&c.After.R, &c.After.RD, &c.After.Vol)
	return c, err
}

// RatedStints implements projections.RecordStore.
func (r *Repo) RatedStints(ctx context.Context) ([]projections.Stint, []projections.Rating, []projections.RatingChange, error) {
	var stints []projections.Stint
	var ratings []projections.Rating
	var changes []projections.RatingChange
	err := pgx.BeginTxFunc(ctx, r.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, ratedStintsSQL)
		if err != nil {
			return fmt.Errorf("projections/postgres: rated stints: %w", err)
		}
		if stints, err = pgx.CollectRows(rows, scanStint); err != nil {
			return fmt.Errorf("projections/postgres: rated stints: %w", err)
		}
		ratings, changes, err = readRatings(ctx, tx)
		return err
	})
	return stints, ratings, changes, err
}

// readRatings reads every rating and change in tx, in Rate's orders.
func readRatings(ctx context.Context, tx pgx.Tx) ([]projections.Rating, []projections.RatingChange, error) {
	rows, err := tx.Query(ctx, `SELECT `+ratingColumns+` FROM ratings ORDER BY game, rating DESC, player`)
	if err != nil {
		return nil, nil, fmt.Errorf("projections/postgres: ratings: %w", err)
	}
	ratings, err := pgx.CollectRows(rows, scanRating)
	if err != nil {
		return nil, nil, fmt.Errorf("projections/postgres: ratings: %w", err)
	}
	rows, err = tx.Query(ctx, `SELECT `+changeColumns+` FROM rating_changes ORDER BY game_id, seat`)
	if err != nil {
		return nil, nil, fmt.Errorf("projections/postgres: rating changes: %w", err)
	}
	changes, err := pgx.CollectRows(rows, scanChange)
	if err != nil {
		return nil, nil, fmt.Errorf("projections/postgres: rating changes: %w", err)
	}
	return ratings, changes, nil
}

// RatingsOf implements projections.RecordStore.
func (r *Repo) RatingsOf(ctx context.Context, player string) ([]projections.Rating, error) {
	rows, err := r.pool.Query(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE player = lower($1) ORDER BY game`, player)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: ratings of a player: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanRating)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: ratings of a player: %w", err)
	}
	return out, nil
}

// Leaderboard implements projections.RecordStore.
func (r *Repo) Leaderboard(ctx context.Context, game string) ([]projections.Rating, error) {
	rows, err := r.pool.Query(ctx, `SELECT `+ratingColumns+` FROM ratings r
		WHERE r.game = $1 AND (r.bot <> '' OR EXISTS (SELECT 1 FROM leaderboard_listed l WHERE l.email = r.player))
		ORDER BY r.rating DESC, r.name, r.player`, game)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: leaderboard: %w", err)
	}
	out, err := pgx.CollectRows(rows, scanRating)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: leaderboard: %w", err)
	}
	return out, nil
}

// GameChanges implements projections.RecordStore.
func (r *Repo) GameChanges(ctx context.Context, id string) ([]projections.RatingChange, error) {
	rows, err := r.pool.Query(ctx, `SELECT `+changeColumns+` FROM rating_changes WHERE game_id = $1 ORDER BY seat`, id)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: rating changes of %s: %w", id, err)
	}
	out, err := pgx.CollectRows(rows, scanChange)
	if err != nil {
		return nil, fmt.Errorf("projections/postgres: rating changes of %s: %w", id, err)
	}
	return out, nil
}

// ClearRecords implements projections.RecordStore.
func (r *Repo) ClearRecords(ctx context.Context) error {
	_, err := r.pool.Exec(ctx, `DELETE FROM record_games; DELETE FROM seat_records; DELETE FROM ratings; DELETE FROM rating_changes`)
	if err != nil {
		return fmt.Errorf("projections/postgres: clear records: %w", err)
	}
	return nil
}

// SetListed implements projections.RecordStore.
func (r *Repo) SetListed(ctx context.Context, email string, listed bool) error {
	var err error
	if listed {
		_, err = r.pool.Exec(ctx, `INSERT INTO leaderboard_listed (email, listed_at) VALUES (lower($1), now())
			ON CONFLICT (email) DO NOTHING`, email)
	} else {
		_, err = r.pool.Exec(ctx, `DELETE FROM leaderboard_listed WHERE email = lower($1)`, email)
	}
	if err != nil {
		return fmt.Errorf("projections/postgres: leaderboard choice: %w", err)
	}
	return nil
}

// Listed implements projections.RecordStore.
func (r *Repo) Listed(ctx context.Context, email string) (bool, error) {
	var ok bool
	err := r.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM leaderboard_listed WHERE email = lower($1))`, email).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("projections/postgres: leaderboard choice: %w", err)
	}
	return ok, nil
}
