// Package enginetest holds property checks that every game engine of pbem
// must pass: play many complete games choosing uniformly among the listed
// legal moves, and check on the way that listed moves are accepted, unlisted
// ones rejected without effect, states and events round-trip through JSON,
// replaying the events gives the same state, views and redacted events leak
// nothing (with a game-specific checker), and every game ends.
//
// Use it from a game's tests:
//
//	stats := enginetest.RandomGames(t, game, enginetest.Options{
//		Games:     10000,
//		Setup:     func(i int) engine.Setup { ... }, // vary players, options, seed
//		Invariant: func(st engine.State) error { ... }, // cheap, every event
//		CheckView: func(st engine.State, seat int, view []byte) error { ... },
//		Plant:     func(st engine.State, seat, k int) (engine.State, bool) { ... },
//		Workers:   runtime.GOMAXPROCS(0),
//	})
//
// The cheap checks run in every game: the chosen listed move is accepted
// and gives events, the game's invariant holds after every event, someone is
// always to move until the Result, the game ends within MaxMoves, the result
// ranks every seat once, Game.Reversible is a pure function of a move's
// events and says yes only to a move that did not end the game and held
// nothing hidden from its own seat (Stats.Reversible counts them), and replaying the events from the setup gives the
// same state JSON.
//
// The expensive ones run on every DeepEvery-th game, at every step: state
// JSON and Clone round trips; every listed move has a label and a kind,
// decodes from its JSON to a move about the same kind and card
// (engine.About) and is accepted; the default move is listed; mutated and
// malformed moves are rejected with a *engine.RuleError; seats not to move
// get not_your_turn and no moves; views marshal (and pass CheckView);
// every seat's explanations (State.Explain, in en, fr, it) have a kind and
// a text and, with Plant, do not change when another seat's hidden card
// does; a forced move (State.Forced) is its seat's only legal move and,
// with Plant, whether a seat's step is forced does not change with a card
// hidden from another seat (Stats.Forced counts them); Decide, Legal,
// View, DefaultMove, Forced and Explain leave the state unchanged; every
// event round-trips through DecodeEvent, and its redaction for every seat
// and the spectator decodes, is described in en, fr, it (and passes
// CheckRedacted); the replay goes through the events' JSON.
//
// Simultaneous decisions are supported: a random seat of ToMove moves.
// CheckArbitraryMove is the building block of a fuzz target.
//
// The translations are checked the same way: GameTexts plays a random game
// in a language and returns every text the engine wrote on the way (option
// labels, move labels, event descriptions as each seat sees them, the
// engine's view texts, the result summary), for an engine's test to look
// for English words and missed elisions in them (engine/i18n/i18ntest).
package enginetest
