package projections

import (
	"context"
	"time"

	"pbem/events"
)

// Repository stores the projections. projections/postgres implements it.
//
// Reads return an *events.Error with CodeNotFound for an unknown game. Save runs
// inside an event-store batch (the tx of an events.BatchHook), so a
// projection is never out of step with its events.
type Repository interface {
	// Game loads a game's row with its seats and admin token hash, and its
	// stored state snapshot: State as it was after StateVersion, which may
	// be below Version (see Game.State and SnapshotEvery).
	Game(ctx context.Context, id string) (*Game, error)
	// Versions returns the versions of the games ids (cheaper than Game: it
	// tells whether cached rows are current); unknown games are left out.
	Versions(ctx context.Context, ids []string) (map[string]int64, error)
	// Request returns the remembered answer of a keyed move, or an *events.Error with CodeNotFound.
	Request(ctx context.Context, id string, seat int, key string) (*Request, error)
	// Save writes the Changes of one batch of appends (one per game)
	// inside the batch's transaction tx.
	Save(ctx context.Context, tx events.Tx, cs []*Change) error
	// GameIDs lists every game, oldest first.
	GameIDs(ctx context.Context) ([]string, error)
	// Replace writes a rebuilt Change: the game's projected columns (keeping
	// its primary data, and its scheduler columns if its version is
	// unchanged) and the seats it awaits, in one transaction.
	Replace(ctx context.Context, c *Change) error
	// MyGames lists every seat of email, the active games first, with
	// each game's last event, without LastMove (the service tells it).
	MyGames(ctx context.Context, email string) ([]MyGame, error)
	// PersonLanguage is the language of email's seat (its own, not its
	// game's) in the game of theirs that changed last among those whose
	// seat has one, other than game except: "" when none has.
	PersonLanguage(ctx context.Context, email, except string) (string, error)
	// WaitingSince maps each seat game id awaits to the time of the
	// event since which it waits.
	WaitingSince(ctx context.Context, id string) (map[int]time.Time, error)
}
