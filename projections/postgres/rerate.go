package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"pbem/projections"
)

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
		b.Queue(`INSERT INTO ratings (game, player, name, bot, rating, rd, volatility, games)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
			ON CONFLICT (game, player) DO UPDATE SET name = excluded.name, bot = excluded.bot, rating = excluded.rating,
				rd = excluded.rd, volatility = excluded.volatility, games = excluded.games`,
			x.Game, x.Player, x.Name, x.Bot, x.Rating, x.RD, x.Volatility, x.Games)
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
		b.Queue(`INSERT INTO rating_changes (game_id, seat, player, name, bot, rating_before, rd_before, vol_before,
			rating_after, rd_after, vol_after) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (game_id, seat) DO UPDATE SET player = excluded.player, name = excluded.name, bot = excluded.bot,
				rating_before = excluded.rating_before, rd_before = excluded.rd_before, vol_before = excluded.vol_before,
				rating_after = excluded.rating_after, rd_after = excluded.rd_after, vol_after = excluded.vol_after`,
			c.GameID, c.Seat, c.Player, c.Name, c.Bot, c.Before.R, c.Before.RD, c.Before.Vol, c.After.R, c.After.RD, c.After.Vol)
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
func readKeyed[K comparable, T any](ctx context.Context, tx pgx.Tx, query string, scan pgx.RowToFunc[T], key func(T) K) (map[K]T, error) {
	rows, err := tx.Query(ctx, query)
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
