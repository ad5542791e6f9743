// Package inbound reads replies to pbem's emails and plays them: the SMTP
// listener of `pbem serve` (PBEM_INBOUND_LISTEN, emersion/go-smtp) and the
// Processor it shares with the dev mailbox's reply form.
//
// # Trust
//
// Every email to a seat has a Reply-To address (notify.ReplyAddress) that
// holds the seat's reply secret (events/tokens.ReplyTag): the same trust as the play
// link, revoked with it when the organiser resends the link. A forged or
// revoked address is refused at RCPT (550): nothing is read, nothing is
// played, no answer is written (so the listener cannot be used to mail a
// third party).
//
// The From address is not a credential. A reply whose From is not the
// seat's address (an alias, a phone with another account) is read like
// any other: whoever holds the address holds the seat, as with the play
// link. The answer always goes to the seat's own address, never to the
// From, so a stranger who forged a From learns nothing and the player sees
// what was done in their name.
//
// # Reading a reply
//
// The text is the first text/plain part, else the first text/html part as
// text (phone clients); quoted lines, attribution lines ("On … wrote:",
// "Le … a écrit :", "Il giorno … ha scritto:"), quoted messages and
// signatures are removed (see replyLines); the rest follows the grammar
// described on parse: moves (a number of the list, or the move in words),
// one a line, played in order, each read against the list the move before
// it left, and any lines that start with "chat:". Every email says so.
//
// The reply address also holds the tag of the list the email numbered
// (projections.ChoiceTag): a first move is played only while the seat's
// list is still that list, and each next line only while the list is the
// one the move before it left (see Processor.play). Otherwise the answer says that the game moved on and
// lists the moves now. The address also holds the version the email was
// written at: a first move is not played when, after it, a move was taken
// back or the seat moved or timed out (play.Service.ReplyStale), since the
// list alone comes back with a take-back and an old reply resent then
// would play the taken-back move again; a chat line or another seat's move
// leaves it valid. The answer says the reply was about an earlier position
// (notify.AnswerStale) and lists the moves now; a reply to an email of a
// version beyond the game's last (a restore of the database cut its
// history) is answered so (outbox.AnswerHistoryCut); a reminder, which numbers no moves, gets the list
// the same way. An unreadable reply gets an answer that quotes what was
// read and lists the moves again. A move by reply is the same event as a
// move by the page; its metadata's request id says "email:<key>"
// (events.Metadata.Channel).
//
// # Hygiene
//
// The same message delivered twice (same Message-ID) is handled once.
// Bounces, delivery reports and automatic replies are never answered and
// never played (see automatic); a hard bounce marks the seat's address for
// the organiser. At most Config.AnswersPerHour answers go to one seat in
// an hour, so that two robots answering each other stop. Messages over
// ListenerConfig.MaxBytes are refused while they are sent (552).
//
// # Limits that hold
//
// A message is refused unread (554 5.6.0) when its multipart parts nest
// deeper than MaxDepth or number more than MaxMIMEParts: one linear pass
// over its structure (checkShape) decides before the MIME reader, whose
// cost grows much faster than the size with nesting, sees it. Reading the
// parts and the HTML stops at Config.ReadTimeout (554 too), so every SMTP
// transaction is answered within seconds whatever it holds. At most
// ListenerConfig.MaxSessions sessions are served at once; a connection
// beyond them is answered 421 and closed.
//
// It must not import pgx, echo, go-mail or the Postgres packages
// (cmd/pbem/layering_test.go).
package inbound
