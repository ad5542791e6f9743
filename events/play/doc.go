// Package play is pbem's game service, where a move is decided: it turns every
// command (create a game, play a move, the admin actions, a deadline's
// timeout; later a take-back, an email reply's move and a bot's move) into
// events appended to the game's stream, and answers the queries the ways in
// need (a seat's view, its history, the audit, a player's games) from the
// read models.
//
// Why here, under events/: a command is decided against the engine and
// becomes events; the service and the store that keeps those events are the
// write side together. The read models (rows computed from the events) stay
// in package projections, and the service writes them through
// projections.Projector and projections.Repository inside the append's
// transaction (events.BatchHook), so a read never sees a move without its
// rows. The service is game-agnostic: it only uses the engine interfaces.
//
// It imports engine, events and projections; it must not import api,
// notify, pgx or echo. Its callers (api, its deadline scheduler,
// scheduler.go, cmd/pbem) use *Service; the scheduler's SQL is
// events/play/postgres.Deadlines.
//
// # The cost of a move
//
// Two things keep a move cheap, and each stays because a load test shows it
// pays (`pbem loadtest`, 32 players, 2 cores, two interleaved rounds each,
// 2026-11-25):
//   - Group commit (writer.go): appends of different games that arrive
//     while a batch is being written wait and go together as the next
//     batch, one events.Store.AppendBatch (one transaction, one commit, the
//     projections of all its moves in one statement over arrays). Alone, an
//     append is a batch of one. Without it (batches of one, up to 64 at a
//     time) PostgreSQL spent 1.04 ms of CPU per move instead of 0.23 ms,
//     and the moves/s halved. One batch is written at a time: see
//     DefaultWriters for the figures.
//   - A game cache (gamecache.go): rows and decoded states of recent games.
//     A move reads nothing before its append (the append checks the version
//     in the database, so a row another process moved on only makes the
//     move lose with a conflict); a view reads only the game's version
//     (versions.go, one query shared by the views waiting at that moment)
//     and uses the cached row when it is current. Without both, CPU per
//     move doubled, in the server (0.23 to 0.42–0.50 ms) and in PostgreSQL
//     (0.19–0.22 to 0.41–0.49 ms). A row rewritten at the same version (pbem
//     rebuild) reaches a running server's views when the game next moves or
//     the server restarts.
//
// The engine state is stored as a snapshot every projections.SnapshotEvery
// events (table game_states, migration 0070) rather than with the game row
// on every move, which cut a move's WAL by 1,330 bytes (from 4,301)
// (bench/peers/walstats.sh); a game read from the database catches its
// snapshot up with the events after it (snapshot.go), and verify checks
// that the snapshot and those events give the replayed state.
//
// Views are appended field by field (View.AppendJSON), with the bytes
// encoding/json gives for their structs: the engine's view by its own
// AppendJSON where it has one (engine.ViewAppender, checked against
// encoding/json by the conformance suite in deep games, so a field added
// without its line fails it), the legal moves by engine.AppendMove, into
// the HTTP edge's pooled buffer. A view is the mover's answer and the
// read of every other seat after a move: by reflection, encoding was a
// tenth of the server's CPU under the peers load; appended it takes half
// the time and a fifth of the memory (BenchmarkViewJSON).
//
// # What a seat can time
//
// A bot's move and a timeout are decisions the system takes in a seat's
// stead, from cards other seats do not see, in a time that depends on
// them; every seat sees each event's recorded_at to the microsecond and
// when a live page updates. Such a decision is appended on a grid of
// Config.DecisionPause from the moment it was asked for (serve: 2 s,
// PBEM_DECISION_PAUSE), so its time shows nothing of how long it took:
// the reasons, and why not the alternatives, are in pause.go. The pause
// runs on the service clock (Config.Now) and is waited with Config.Sleep,
// so that TestFairPlayDecisionTimes (this package's tests), which times
// bots as a cheat would, gives it a clock of its own: the property is
// checked exactly and no real time passes.
//
// Errors are *events.Error values with a machine code (events.CodeInvalid,
// events.CodeNotFound, ...), the one error type of the service and its
// stores; an engine's rule error keeps its own (*engine.RuleError).
// ErrorCode and ErrorMessage read either; the HTTP layer maps codes to
// statuses in one table.
//
// Choices the design left open, written down here:
//   - Statuses: active, paused, finished, aborted. Only active games have a
//     deadline and take moves.
//   - The seed is in the pbem.created event; every view, history entry and
//     summary shows only its SHA-256 until the game has finished or been
//     aborted, when Audit reveals it with every event in full, and the
//     commitment key of the events' hashes (derived from the seed; see
//     package events), which CheckAudit (pbem verify --audit) checks
//     offline with every hash and every shuffle.
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
package play
