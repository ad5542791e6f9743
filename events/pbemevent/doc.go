// Package pbemevent holds the game service's own events, the "pbem.*"
// types a game's stream holds beside its engine's events (created,
// timeout, paused, chat, takeback...), their data, and how a stream is
// replayed: its opening pbem.created deals the game again (Opening, Deal),
// and StandingEvents visits its engine events, leaving out the service's
// events and the moves taken back, for every reader that replays a game.
//
// Why its own package, beside events/play: the service (events/play)
// writes these events and the read models (projections) fold them, and
// projections may not import the service. What the service decides with
// them (the rules of a take-back, its errors) stays in events/play.
//
// It imports engine and events only.
package pbemevent
