// Package notify sends pbem's emails: it renders outbox rows into
// multipart messages (plain text and HTML, in the game's language), sends
// them through an SMTP server or the dev mailbox, retries with exponential
// backoff, honours each player's mail preference, signs unsubscribe links,
// DKIM-signs what it sends to a relay when a key is configured (DKIM), and
// counts what it sends (Metrics). Timing games out (timeouts, reminders) is
// the game service's (events/play.Scheduler); the digests it has written
// are notify/postgres.Digester's.
//
// # Delivery: at least once after a crash, exactly once otherwise
//
// The game service writes an outbox row in the same transaction as the move
// that causes it, so an email is never lost and never sent for a move that
// did not commit. A Worker takes rows with a lease rather than a long
// transaction:
//
//  1. Claim: list the due pending rows no worker holds, without a lock,
//     then in one short UPDATE set leased_until = now + lease and
//     attempts + 1 on those still due and free (a row another worker
//     leased meanwhile is left out, and looked past in a second listing).
//     Other workers (other serve processes) skip leased rows, and no
//     transaction stays open while talking to the SMTP server.
//  2. Send the batch on one SMTP connection.
//  3. Mark each row sent (or schedule its retry, or mark it failed).
//
// Worker.Run does this with several senders at once (WorkerConfig.Senders,
// PBEM_MAIL_SENDERS), each with its own claims, so no row goes to two of
// them; the SMTPSender keeps its connections open from one batch to the
// next and replaces one that broke.
//
// If a worker dies between 1 and 3, its rows are still pending and become
// due again when the lease ends, so another worker sends them: nothing is
// lost. The price is that a message which the SMTP server accepted just
// before the crash goes out a second time. Every row's Message-ID is fixed
// (<outbox-ID.GAME@HOST>, HOST being PBEM_PUBLIC_URL's host; a seat's first
// invitation has its thread's root, see Threads), so the second copy is
// recognisable: mail stores and clients that deduplicate by
// Message-ID (Gmail, many IMAP clients) show it once, and a human can see
// it is the same message. Under normal operation (no crash, lease longer
// than a batch takes) every email goes out exactly once.
//
// A send that fails for a temporary reason (the relay down or answering
// 4xx) is retried with growing delays, then hourly, for RetryFor (five
// days by default, as mail servers do: RFC 5321 section 4.5.4.1); a
// permanent refusal (5xx) fails at once. Meanwhile the game's admin sees
// the email as waiting, with the last error and the next attempt; then as
// failed (OutboxStore.Failed). Attempts are counted at claim time, so a
// row that crashes the worker itself also ends as failed after
// MaxAttempts.
//
// # Threads
//
// A game's emails to one seat form one thread, with no lookup: the seat's
// first invitation (token generation 0) has the Message-ID
// <seat-N.GAME@HOST> (Renderer.ThreadID), and every later email of the
// game to the seat has References: <seat-N.GAME@HOST>. The answer to a
// reply has In-Reply-To the reply and References the root, then the reply.
//
// # Headers
//
// The subject is written as short RFC 2047 encoded words when it is not
// plain ASCII (encodeSubject), so that it unfolds without a leading space.
// From has a display name (PBEM_MAIL_FROM's, else "pbem"). Precedence:
// bulk and List-Unsubscribe are on the kinds Kind.Bulk names only.
//
// # Preferences
//
// Each address has a Mode: every event (the default), a daily digest of
// the games waiting for the player, or off. Invitations and link resends
// are always sent; a play link keeps working whatever the mode. A row not
// sent because of the mode is marked skipped.
//
// # Secrets
//
// A play link's token is derived from PBEM_SECRET when the email is
// rendered (events/tokens.Seat); it is never stored and never logged.
// Emails carry only what the payload holds (written by the game service
// from the recipient's view) and what the worker's SeatReader reads for
// the recipient's seat when the email is rendered (story.go: its redacted
// history since it last heard, the summaries of the rounds it tells as the
// seat sees them, its time zone): no other seat's cards, no seed.
//
// It owns the emails (rendering, the outbox worker); its SQL is in
// notify/postgres; cmd/pbem wires it (mailside.go). It must not import
// api, pgx or echo (cmd/pbem/layering_test.go).
package notify
