// Package projections holds pbem's read models, built from the events and
// only from them: the game row (version, status, deadlines) and its state
// snapshot (every SnapshotEvery events), the games a player sits in (the
// "My games" page: mygames.go), and the email outbox rows a change owes. Each seat's redacted history is not stored:
// its readers tell it from the events when they read it (history.go:
// SeatHistory).
//
// One Projector (projector.go) folds a game's events into those rows: the
// game service (package events/play) runs it inside each append's
// transaction, and Replay runs it over a whole stream for `pbem rebuild`
// and `pbem verify`, so a rebuild equals the live tables. A Repository
// (its SQL in projections/postgres) reads and writes the rows.
//
// The service's own events ("pbem.*": created, timeout, paused...) that
// the projector folds are declared in package events/pbemevent, with the
// one replay of a stream's standing engine events (StandingEvents).
//
// It imports engine and events; it must not import events/play, api,
// notify, pgx or echo.
package projections
