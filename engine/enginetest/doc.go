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
//		Games: 10000,
//		Setup: func(i int) engine.Setup { ... },
//		Invariant: func(st engine.State) error { ... }, // cheap, every event
//	})
//
// The expensive checks run on every DeepEvery-th game only, so that a large
// number of games stays fast; the cheap ones (legal moves accepted, the
// game's invariant, the game ends, replay gives the same state) run on all.
package enginetest
