package postgres

import (
	"context"
	"maps"
	"slices"

	"github.com/jackc/pgx/v5"

	"pbem/projections"
)

// rateSaved rates the games ids whose stints SaveStints just wrote, in tx
// (which holds recordsLock). Games stored for the first time (stored is
// false: none had stints before) that all ended after every other
// finished game (endLast) are rated alone, on from the stored ratings of
// their players (rateLast), which gives what rating every game again
// gives (projections.RateFrom): a game that ends reads and rates its own
// stints, not the whole history. Otherwise (a game stored again, a game
// folded late, a rebuild taking games by id) every rating is computed
// again (rerate).
func rateSaved(ctx context.Context, tx pgx.Tx, ids []string, stored bool, rate projections.Rater) error {
	if !stored {
		last, err := endLast(ctx, tx, ids)
		if err != nil {
			return err
		}
		if last {
			return rateLast(ctx, tx, ids, rate)
		}
	}
	return rerate(ctx, tx, rate)
}

// endLast reports whether every finished stint of the games ids ended
// after (then by game id, in byte order as projections.Rate sorts) every
// finished stint of the other games: the order in which Rate takes the
// games puts them last. It compares the first stint of the games ids with
// the last of the others, which seat_records_finished (migration 0106)
// gives by reading back from its end past the few stints of ids: a cost
// that does not grow with the history. The OFFSET 0 keeps the planner
// from reading the first stint of ids through that index too (from its
// start, across every other game): it reads the few rows of ids by their
// key and sorts them.
func endLast(ctx context.Context, tx pgx.Tx, ids []string) (bool, error) {
	var last bool
	err := tx.QueryRow(ctx, `WITH first AS (SELECT ended_at, game_id FROM (SELECT ended_at, game_id COLLATE "C" AS game_id
			FROM seat_records WHERE game_id = ANY($1) AND outcome = 'finished' AND ended_at IS NOT NULL OFFSET 0) s
			ORDER BY ended_at, game_id LIMIT 1),
		other AS (SELECT ended_at, game_id COLLATE "C" AS game_id FROM seat_records
			WHERE outcome = 'finished' AND ended_at IS NOT NULL AND game_id <> ALL($1)
			ORDER BY ended_at DESC, game_id COLLATE "C" DESC LIMIT 1)
		SELECT NOT EXISTS (SELECT 1 FROM first f, other o WHERE (o.ended_at, o.game_id) > (f.ended_at, f.game_id))`,
		ids).Scan(&last)
	return last, err
}

// rateLast rates the finished games ids, which end last (endLast), on from
// the stored ratings of their players, and writes their rating changes and
// the ratings that moved.
func rateLast(ctx context.Context, tx pgx.Tx, ids []string, rate projections.Rater) error {
	rows, err := tx.Query(ctx, `SELECT `+stintColumns+` FROM seat_records
		WHERE game_id = ANY($1) AND outcome = 'finished' ORDER BY ended_at, game_id, seat, stint`, ids)
	if err != nil {
		return err
	}
	stints, err := pgx.CollectRows(rows, scanStint)
	if err != nil || len(stints) == 0 {
		return err
	}
	var games, players []string
	for i := range stints {
		p, _ := projections.RatedBy(&stints[i])
		games, players = append(games, stints[i].Game), append(players, p)
	}
	prior, err := readKeyed(ctx, tx, `SELECT `+ratingColumns+` FROM ratings WHERE game = ANY($1) AND player = ANY($2)`,
		scanRating, func(x projections.Rating) [2]string { return [2]string{x.Game, x.Player} }, games, players)
	if err != nil {
		return err
	}
	ratings, changes := rate(slices.Collect(maps.Values(prior)), stints)
	b := &pgx.Batch{}
	for _, x := range ratings {
		if old, ok := prior[[2]string{x.Game, x.Player}]; !ok || old != x {
			queueRating(b, x)
		}
	}
	for _, c := range changes {
		queueChange(b, c)
	}
	if b.Len() == 0 {
		return nil
	}
	return tx.SendBatch(ctx, b).Close()
}

// queueRating queues the upsert of rating x.
func queueRating(b *pgx.Batch, x projections.Rating) {
	b.Queue(`INSERT INTO ratings (game, player, name, bot, rating, rd, volatility, games)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (game, player) DO UPDATE SET name = excluded.name, bot = excluded.bot, rating = excluded.rating,
			rd = excluded.rd, volatility = excluded.volatility, games = excluded.games`,
		x.Game, x.Player, x.Name, x.Bot, x.Rating, x.RD, x.Volatility, x.Games)
}

// queueChange queues the upsert of rating change c.
func queueChange(b *pgx.Batch, c projections.RatingChange) {
	b.Queue(`INSERT INTO rating_changes (game_id, seat, player, name, bot, rating_before, rd_before, vol_before,
		rating_after, rd_after, vol_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (game_id, seat) DO UPDATE SET player = excluded.player, name = excluded.name, bot = excluded.bot,
			rating_before = excluded.rating_before, rd_before = excluded.rd_before, vol_before = excluded.vol_before,
			rating_after = excluded.rating_after, rd_after = excluded.rd_after, vol_after = excluded.vol_after`,
		c.GameID, c.Seat, c.Player, c.Name, c.Bot, c.Before.R, c.Before.RD, c.Before.Vol, c.After.R, c.After.RD, c.After.Vol)
}

// saveRatings makes the ratings and rating_changes tables hold ratings and
// changes, in tx, writing only the rows that differ from what they hold:
// Rerate computes every rating again from every finished game, and a game
// that ends after the others changes only its own seats' changes and its
// players' ratings. Deleting and inserting every row again, as Rerate
// did, wrote WAL and dead rows in proportion to the whole history at
// every game's end (the records refresher runs up to once a second). The
// stored float8 values read back exactly, so equal rows compare equal.
func saveRatings(ctx context.Context, tx pgx.Tx, ratings []projections.Rating, changes []projections.RatingChange) error {
	oldRatings, err := readKeyed(ctx, tx, `SELECT `+ratingColumns+` FROM ratings`, scanRating,
		func(x projections.Rating) [2]string { return [2]string{x.Game, x.Player} })
	if err != nil {
		return err
	}
	oldChanges, err := readKeyed(ctx, tx, `SELECT `+changeColumns+` FROM rating_changes`, scanChange, changeKey)
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	for _, x := range ratings {
		k := [2]string{x.Game, x.Player}
		old, ok := oldRatings[k]
		delete(oldRatings, k)
		if ok && old == x {
			continue
		}
		queueRating(b, x)
	}
	for k := range oldRatings {
		b.Queue(`DELETE FROM ratings WHERE game = $1 AND player = $2`, k[0], k[1])
	}
	for _, c := range changes {
		k := changeKey(c)
		old, ok := oldChanges[k]
		delete(oldChanges, k)
		if ok && old == c {
			continue
		}
		queueChange(b, c)
	}
	for _, c := range oldChanges {
		b.Queue(`DELETE FROM rating_changes WHERE game_id = $1 AND seat = $2`, c.GameID, c.Seat)
	}
	if b.Len() == 0 {
		return nil
	}
	return tx.SendBatch(ctx, b).Close()
}

// seatKey is a rating change's primary key.
type seatKey struct {
	game string
	seat int
}

func changeKey(c projections.RatingChange) seatKey { return seatKey{c.GameID, c.Seat} }

// readKeyed reads the rows of query by key.
func readKeyed[K comparable, T any](ctx context.Context, tx pgx.Tx, query string, scan pgx.RowToFunc[T], key func(T) K, args ...any) (map[K]T, error) {
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	xs, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, err
	}
	out := make(map[K]T, len(xs))
	for _, x := range xs {
		out[key(x)] = x
	}
	return out, nil
}
