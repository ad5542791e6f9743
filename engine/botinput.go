package engine

import (
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
)

// What a bot may be given, as types (issue #28): its seat's view
// (SeatView), the game's events as that seat sees them (SeatHistory, made
// only by Redacted) and a key for its randomness derived from the game's
// seed (BotKey, made only by Seed.BotKey). Game.ChooseBot takes these and
// nothing else, so handing a bot the State, unredacted events or the seed,
// from which every shuffle follows, does not compile.

// SeatView is one seat's view: what State.View returns. The engines' View
// types implement it; a State does not.
type SeatView interface {
	// ViewSeat is the seat whose view this is (Spectator for the public one).
	ViewSeat() int
	// Score is the round and the seats' scores as this view shows them
	// (the audit's chart draws the public view's, round by round).
	Score() Score
}

// Score is what a view shows of the scores: the round the game is in, and
// each seat's score by seat (nil: the view shows no scores).
type Score struct {
	Round int
	Seats []int
}

// SeatHistory is a game's events as one seat may see them, oldest first.
// Only Redacted makes one; the zero value is the empty history of no seat.
type SeatHistory struct {
	seat   int
	events []Event
}

// Redacted is the history of evs (a game's events in order, unredacted)
// as seat sees them: each event passed through g.Redact(e, seat).
func Redacted(g Game, evs []Event, seat int) SeatHistory {
	out := make([]Event, len(evs))
	for i, e := range evs {
		out[i] = g.Redact(e, seat)
	}
	return SeatHistory{seat: seat, events: out}
}

// Seat is the seat the history was redacted for.
func (h SeatHistory) Seat() int { return h.seat }

// Events are the redacted events, oldest first. The slice is shared: do
// not change it.
func (h SeatHistory) Events() []Event { return h.events }

// Append returns the history with more events of the game, redacted for
// its seat by g (the bots' own tests and tools extend one as they play).
// Like the built-in append, the result may share h's array: extend one
// history at a time.
func (h SeatHistory) Append(g Game, evs ...Event) SeatHistory {
	out := h.events
	for _, e := range evs {
		out = append(out, g.Redact(e, h.seat))
	}
	return SeatHistory{seat: h.seat, events: out}
}

// BotKey keys the randomness of a game's bots. Derived from the game's
// seed (Seed.BotKey), it tells nothing of the seed, so a bot cannot deal
// the game again and read the hidden cards from it.
type BotKey struct{ k [32]byte }

// botKeyInfo is the HKDF info of Seed.BotKey.
const botKeyInfo = "pbem bot key v1"

// BotKey derives the key of the game's bots from s: HKDF-SHA256 (RFC
// 5869) with s as input keying material, no salt and the info "pbem bot
// key v1". It is not the key that hides the events' data (package events
// derives that one with another info).
func (s Seed) BotKey() BotKey {
	b, err := hkdf.Key(sha256.New, s[:], nil, botKeyInfo, 32)
	if err != nil {
		// HKDF-SHA256 of 32 bytes from a 32-byte secret cannot fail.
		panic("engine: hkdf: " + err.Error())
	}
	return BotKey{k: [32]byte(b)}
}

// Sum returns SHA-256("pbem bot" || 0x00 || key || each part as 8 bytes,
// little-endian): the seed of one decision's PRNG (engine/bot, NewRand).
func (k BotKey) Sum(parts ...uint64) [32]byte {
	h := sha256.New()
	h.Write([]byte("pbem bot\x00"))
	h.Write(k.k[:])
	var b [8]byte
	for _, x := range parts {
		binary.LittleEndian.PutUint64(b[:], x)
		h.Write(b[:])
	}
	return [32]byte(h.Sum(nil))
}
