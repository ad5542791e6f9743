// Package events is pbem's event log: the envelope every fact is stored in,
// the Store interface, its errors, and an in-memory Store. It knows no game.
//
// A stream holds one game's events, versioned 1, 2, 3... Every event also has
// a global position in the log of all streams, and a SHA-256 hash over the
// previous event's hash and its own canonical bytes, so that any edit of
// history is detectable (see Verify).
//
// It owns the envelope and the Store contract and knows no game: it imports
// nothing of pbem's (checked by cmd/pbem/layering_test.go).
//
// # The hash chain and hidden information
//
// Players see the hashes of a running game (each history line carries its
// event's hash) so that, once the game has ended, they can check that the
// published record is the one they played. A hash must therefore tell a
// player nothing about what is hidden from them while the game runs, and
// everything needed to check it must be published when it ends. The
// contract, which a third party can reimplement from this section alone:
//
//	Hash(v)      = SHA-256(Hash(v-1) || C(event v))      Hash(0) = 32 zero bytes
//	C, format 2  = {"commit":"<hex M>","format":2,"meta":{"actor":…,"idempotency_key":…,"request_id":…},
//	                "recorded_at":<Unix µs>,"stream":…,"type":…,"version":v}
//	M            = HMAC-SHA256(K, "pbem/events commit v2" || 0x00 || CanonicalJSON(data))
//	C, format 1  = Canonical(event): the same object with "data":<CanonicalJSON(data)>
//	               in place of "commit" and without "format"
//
// (C is one line, members in that order, strings escaped as CanonicalJSON
// does; see CanonicalCommitted and Canonical.)
//
// What is committed: the whole data of every event, not only the fields a
// game hides. This package knows no game, so it cannot tell a hidden field
// from a public one; a scheme per field would rest on every engine marking
// every field of every event correctly, for ever, and one forgotten field
// would leak again. Committing the whole data makes a hash independent of
// hidden data for any engine by construction. The envelope stays in clear:
// stream, type, version, meta and recorded_at are shown to every seat in
// the history anyway. Knowing all of them no longer helps a cheat: the
// request id of a bot's move ("bot:<game>"), the "system" actor of a
// timeout, a seat's own idempotency key and the time to the microsecond
// leave M unknown, and without K trying the possible values of a card
// against a hash needs M, which is a pseudorandom function of K.
//
// The key K: 32 bytes per game, derived from the game's 32-byte seed by its
// owner (HKDF-SHA256, see CommitKeyFrom), so it is fixed when the game is
// created: its pbem.created event publishes SHA-256(seed), which binds K.
// The seed and K are never shown before the game ends; the audit of an
// ended game reveals both.
//
// Why HMAC and not a random salt per event: the same hiding (HMAC-SHA256 is
// a pseudorandom function: to anyone without K, M and hence the hash are
// uniformly random and independent of the data), binding once K is known
// (finding other data with the same M under a known K is a SHA-256
// collision), and nothing more to store or reveal: a salt would add 16–32
// bytes to every row and its WAL and a list of salts to the audit.
//
// How a third party verifies an ended game: take the audit (GET
// /api/v1/games/{id}/audit: every event whole, the seed, K and the chain
// format); check SHA-256(seed) against the seed_hash of pbem.created and K
// against CommitKeyFrom(seed); recompute M, C and Hash for every event in
// order and compare with the published hashes (and with those noted while
// playing); then deal the game again from the seed and replay the events
// (pbem verify does all of it; docs/events.md gives the algorithm).
//
// Formats: a stream has one format, that of its first event. Streams begun
// before commitments (format 1, data in clear) keep it, so an existing
// database still verifies, and the service shows their hashes to no one
// before the game ends; every new game is format 2. An Append with a Key
// writes format 2, without one format 1; VerifyChain and Store.Verify take
// the same key. The member "format":2 and the prefix of M keep the bytes of
// the two formats, and of any later one, apart.
package events
