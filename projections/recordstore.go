package projections

import "context"

// RecordStore stores the records read model (issue #46): the Stints of
// ended games (finished or aborted: nothing they hold changes any more;
// a game still played is folded when it is read) and the ratings
// computed from them (Rate). Both are rebuilt from the events: ClearRecords
// then the refresh of every ended game. It also keeps who chose to be on
// the leaderboards, a person's choice no event holds (primary data, kept
// by a rebuild). projections/postgres implements it.
type RecordStore interface {
	// StaleRecords lists up to limit ended games whose stints are missing
	// or were folded at another version than the game's, oldest id first.
	StaleRecords(ctx context.Context, limit int) ([]string, error)
	// SaveStints writes each game's stints in place of those it had, then
	// rates them with rate, in one transaction: the ratings never lag the
	// stints stored (not between two calls, nor after a crash between
	// them, which left them stale until another game ended). Games stored
	// for the first time that ended after every game rated are rated on
	// from their players' stored ratings; otherwise every rating is
	// computed again, as Rerate does.
	SaveStints(ctx context.Context, games []FoldedGame, rate Rater) error
	// GameStints reads the stints stored for game id and the version they
	// were folded at (0 and none if it has none).
	GameStints(ctx context.Context, id string) ([]Stint, int64, error)
	// RecordedGames lists the games that have stored stints.
	RecordedGames(ctx context.Context) ([]string, error)
	// ActiveGamesOf lists the games still played (active or paused) where
	// address email (any case) holds a seat or held one until replaced.
	ActiveGamesOf(ctx context.Context, email string) ([]string, error)
	// StintsOf reads the stored stints of address email (any case).
	StintsOf(ctx context.Context, email string) ([]Stint, error)
	// Rerate recomputes every rating from the stored stints of the
	// finished games with rate, and writes the ratings and changes it
	// returns in place of the old ones, all under one lock (two servers
	// rating at once write one after the other, each from what it read).
	Rerate(ctx context.Context, rate Rater) error
	// RatedStints reads, in one snapshot, the stints Rerate rates from (in
	// the order it gives them to rate) and the stored ratings and changes
	// (in Rate's orders), for a check that the ones are computed from the others.
	RatedStints(ctx context.Context) ([]Stint, []Rating, []RatingChange, error)
	// RatingsOf reads the ratings of the player key (an address, any case).
	RatingsOf(ctx context.Context, player string) ([]Rating, error)
	// Leaderboard reads the ratings at game of the bots and of the people
	// who chose to be listed, best first.
	Leaderboard(ctx context.Context, game string) ([]Rating, error)
	// GameChanges reads the rating changes of finished game id, by seat.
	GameChanges(ctx context.Context, id string) ([]RatingChange, error)
	// ClearRecords deletes every stored stint, rating and change (not the
	// leaderboard choices), before a rebuild.
	ClearRecords(ctx context.Context) error
	// SetListed records whether address email wants to be listed on the
	// leaderboards; Listed reads it (false by default).
	SetListed(ctx context.Context, email string, listed bool) error
	Listed(ctx context.Context, email string) (bool, error)
}

// FoldedGame is an ended game's stints, folded from its events up to
// Version.
type FoldedGame struct {
	ID      string
	Version int64
	Stints  []Stint
}
