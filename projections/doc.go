// Package projections is pbem's game service: it creates games, takes moves,
// runs the admin and deadline actions, and keeps the read models (game state,
// lobby, inbox, per-seat redacted history) and the email outbox in step with
// the event log.
//
// The service is game-agnostic: it only uses the engine interfaces. Every
// change is an append to the game's event stream (engine events, plus the
// service's own "pbem.*" events); the projections and outbox rows of that
// append are computed by one projector (projector.go), which `pbem rebuild`
// reuses, and written by a Repository inside the append's transaction
// (events.BatchHook). The SQL lives in projections/postgres.
//
// # The cost of a move
//
// A move is the hot path, and three things keep it cheap:
//   - Group commit (writer.go): appends of different games that arrive
//     while a batch is being written wait and go together as the next
//     batch, one events.Store.AppendBatch: one transaction, one commit, and
//     the projections of all its moves in one statement over arrays. Alone,
//     an append is a batch of one.
//   - A game cache (gamecache.go): rows and decoded states of recent
//     games. A move reads nothing before its append (the append checks the
//     version in the database, so a row another process moved on only makes
//     the move lose with a conflict); a view reads only the game's version
//     (versions.go, one query shared by the views waiting at that moment)
//     and uses the cached row when it is current. A row rewritten at the
//     same version (pbem rebuild) reaches a running server's views when the
//     game next moves or the server restarts.
//   - The event store remembers the heads it wrote (events/postgres), so
//     a batch's events are one INSERT without lookups.
//
// The load tool (cmd/pbemload) measures the whole path over HTTP (see README).
//
// Errors are *Error values with a machine code (error.go); the HTTP layer maps
// codes to statuses in one table.
//
// Choices the design left open, written down here:
//   - Statuses: active, paused, finished, aborted. Only active games have a
//     deadline and take moves.
//   - The seed is in the pbem.created event; every view, history entry and
//     summary shows only its SHA-256 until the game has finished or been
//     aborted, when Audit reveals it with every event in full.
//   - Players' emails are personal data: they live in the seats table, never in
//     events. Seats (emails, token generations, token hashes) and the admin
//     token hash are primary data: rebuild recomputes everything else.
//   - Deadlines: when a seat starts being awaited (or after a timeout or a
//     resume) the deadline becomes now + turn_deadline and the reminder time
//     deadline - reminder_before. Moves that keep the same seats awaited keep the
//     deadline. The deadline times of moves come from the service clock, so
//     rebuild keeps the live deadline_at, reminder_at and reminded_version of a
//     game whose version it reaches unchanged (they are scheduler state).
//   - Timeout policies: default_move plays State.DefaultMove for every awaited
//     seat (as actor "system"), repeatedly while that seat stays awaited;
//     skip has no generic meaning in the engine contract, so it falls back to
//     default_move; pause pauses the game.
//   - Extensions: each Extend adds 1 minute to 7 days; at most MaxExtensions
//     per game.
package projections
