// Package postgres stores pbem's projections in PostgreSQL: the games
// (lobby rows; their state snapshots in game_states, migration 0070), seats (the awaited seats in the game row, migration 0084), remembered move
// answers and the email outbox (tables of migration 0002). It implements
// projections.Repository; its Save runs inside the event store's append
// transaction, so projections and outbox rows commit with their events.
// The service's own records (proposals, sessions, page visits:
// play.Accounts, play.Visits) are not read models: events/play/postgres
// stores them.
//
// It must not import the game service, notify, api or echo
// (cmd/pbem/layering_test.go).
package postgres
