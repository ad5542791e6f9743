package pbemevent

import (
	"fmt"

	"pbem/engine"
	"pbem/events"
)

// seedMark ends the seed of every game created since issue #44, followed
// by one byte, the chain format of the game's stream: "pbemfmt" and 0x02
// (hex 70 62 65 6d 66 6d 74 02).
//
// Why in the seed: an audit record is checked offline, and after the end
// everything in it can be computed again by whoever holds the revealed
// seed, commit key included, so that a server could rewrite a game whole in
// an older format (format 1 hashes the data in clear, and a format-1 game
// shows no hash before its end, so nothing its players noted would
// contradict the rewrite). The seed is the one thing a rewrite cannot
// change: it deals every card and draw, and its SHA-256 is published from
// the first event, so another seed is another game. A format written into
// the seed is therefore the game's own, and a record in another format is
// refused (CheckSeedFormat). The 24 other bytes are random: 192 bits, past
// any search from the published hash. A seed made before the mark (every
// format-1 game and the format-2 games created before it) ends so with
// probability 2^-64 and is taken at the format its pbem.created gives.
const seedMark = "pbemfmt"

// MarkSeed writes format into the last 8 bytes of seed (see seedMark).
func MarkSeed(seed *engine.Seed, format int) {
	n := len(seed) - len(seedMark) - 1
	copy(seed[n:], seedMark)
	seed[len(seed)-1] = byte(format)
}

// SeedFormat returns the chain format MarkSeed wrote into seed, or 0 for
// a seed made before the mark.
func SeedFormat(seed engine.Seed) int {
	n := len(seed) - len(seedMark) - 1
	if string(seed[n:len(seed)-1]) != seedMark {
		return 0
	}
	return int(seed[len(seed)-1])
}

// CheckSeedFormat refuses a stream in chain format (events.FormatPlain or
// events.FormatCommitted) whose seed was made for another: a chain
// rewritten in an older format than the game's (see seedMark).
func CheckSeedFormat(seed engine.Seed, format int) error {
	if f := SeedFormat(seed); f != 0 && f != format {
		return fmt.Errorf("the seed, which deals every card, was made for chain format %d, and the chain is in format %d: "+
			"a chain rewritten in another format than the game's", f, format)
	}
	return nil
}

// Format is the chain format of the stream c opens: events.FormatPlain
// when pbem.created says none (games created before commitments).
func (c *Created) Format() int {
	if c.ChainFormat == 0 {
		return events.FormatPlain
	}
	return c.ChainFormat
}
