// Package postgres stores the game service's own records in PostgreSQL:
// the organisers' proposals, blocked addresses, sign-in links and sessions
// (play.Accounts, tables of migration 0020), and when each seat last
// opened its play page (play.Visits, table seat_visits), and the deadline
// scheduler's queries over the games and seats (play.DeadlineStore,
// Deadlines: the games due to time out, the reminders before deadlines).
//
// Why here and not in projections/postgres: those rows are primary data
// that the service writes as it decides or shows (a proposal, a session,
// a visit), no event holds them and no rebuild restores them, so they are
// not read models.
// Two of its queries, Organised and HasGames, join the proposals with the
// game rows (read models), which they read and never write; the queries
// that read only the game rows ("My games", the seats a game awaits) stay
// with the read models in projections/postgres.
//
// It imports the service for its types and error codes; the service does
// not import it (cmd/pbem wires it in play.Config.Accounts). It must not
// import api, notify, the read models' SQL or echo
// (cmd/pbem/layering_test.go).
package postgres
