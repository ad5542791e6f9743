// Package postgres is the SQL side of package notify: the outbox claims and
// outcomes, mail preferences, the dev mailbox and the deadline queries, on
// a pgx pool. Tables: outbox (migration 0002), mailbox, mail_prefs and
// mail_digests (migration 0003).
//
// It must not import api or echo (cmd/pbem/layering_test.go).
package postgres
