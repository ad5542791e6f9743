// Package bot holds what the game bots share: their levels, the seeding of
// their randomness, and the search of the strong level (a determinized
// Monte Carlo tree search with voting, see Search).
//
// A bot decides from what its seat may know: the seat's view and the
// events of the game as that seat sees them (Game.Redact). Each engine
// package gives its bot a typed entry that takes the engine's View type,
// never the engine state, so a bot cannot read what its seat may not see;
// Choose is the one generic entry that the service calls.
//
// A bot is deterministic: given the same view, history, bot key and
// version it makes the same choice, so the audit can re-run a bot's moves.
// Its randomness comes from a ChaCha8 PRNG keyed by a hash of the game's
// bot key, the version and the seat (NewRand). The bot key derives from
// the game's seed (engine.Seed.BotKey) and tells nothing of it: the seed,
// from which every shuffle follows, never reaches a bot. The entries'
// types (engine.SeatView, engine.SeatHistory, engine.BotKey) make handing
// a bot anything more a compile error.
package bot

import (
	"math/rand/v2"
	"strings"

	"pbem/engine"
)

// Level is how well a bot plays (engine.BotLevel, named here for the
// bots' callers).
type Level = engine.BotLevel

// The levels.
const (
	Easy   = engine.BotEasy
	Normal = engine.BotNormal
	Strong = engine.BotStrong
)

// ParseLevel reads a level's name ("easy", "normal", "strong"; case and
// surrounding spaces ignored). An unknown name is an *engine.RuleError with
// code engine.CodeBadOptions.
func ParseLevel(s string) (Level, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	for l := Easy; l <= Strong; l++ {
		if l.String() == name {
			return l, nil
		}
	}
	return 0, engine.Errorf(engine.CodeBadOptions, "unknown bot level %q (want easy, normal or strong)", s)
}

// NewRand returns the PRNG of one bot decision: ChaCha8 keyed by
// key.Sum(version, seat, salt...) (engine.BotKey.Sum), so that each
// decision of each seat draws its own numbers and replaying a game gives
// the same ones.
func NewRand(key engine.BotKey, version, seat int, salt ...uint64) *rand.Rand {
	parts := append([]uint64{uint64(int64(version)), uint64(int64(seat))}, salt...)
	return rand.New(rand.NewChaCha8(key.Sum(parts...)))
}

// Choose is the bot's decision for the seat whose view is given: a move
// taken verbatim from the view's legal moves (that is, State.Legal(seat)),
// to be posted through the ordinary decide path.
//
//   - g is the game (its ChooseBot does the work);
//   - view is State.View(seat) for the bot's seat, as returned;
//   - history is every event of the game so far as the seat sees them
//     (engine.Redacted);
//   - key is the game's bot key (engine.Seed.BotKey) and version the
//     stream's version (its number of events) when the bot decides:
//     together with the seat they key the bot's PRNG, so that replaying
//     the game gives the same bot moves.
//
// Errors: an *engine.RuleError with code engine.CodeBadOptions for an
// unknown level or a view of the wrong type or seat;
// engine.CodeNotYourTurn when the view lists no legal move.
func Choose(g engine.Game, level Level, view engine.SeatView, history engine.SeatHistory, key engine.BotKey, version int) (engine.Move, error) {
	if !level.Valid() {
		return nil, engine.Errorf(engine.CodeBadOptions, "unknown bot level %d", int(level))
	}
	return g.ChooseBot(level, view, history, key, version)
}

// ViewAs reads a seat's view (a V, or a non-nil *V) as the V that game's
// typed bot entry takes, and checks that history was redacted for that
// view's seat; anything else is ErrWrongView.
func ViewAs[V any](game string, view engine.SeatView, history engine.SeatHistory) (V, error) {
	if view != nil && view.ViewSeat() != history.Seat() {
		var zero V
		return zero, engine.Errorf(engine.CodeBadOptions, "%s bot: a history of seat %d for the view of seat %d", game, history.Seat(), view.ViewSeat())
	}
	switch v := any(view).(type) {
	case V:
		return v, nil
	case *V:
		if v != nil {
			return *v, nil
		}
	}
	var zero V
	return zero, ErrWrongView(game, view)
}

// ErrWrongView is the error of a typed entry given a view of another game.
func ErrWrongView(game string, view any) error {
	return engine.Errorf(engine.CodeBadOptions, "%s bot: a view of type %T is not this game's view", game, view)
}
