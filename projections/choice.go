package projections

import (
	"crypto/sha256"
	"encoding/hex"

	"pbem/engine"
)

// ChoiceTag identifies a list of legal moves: the first 8 hex digits of
// SHA-256 over the moves' JSON, one per line. An email's reply address
// carries the tag of the list it numbered, so that a reply's number is
// played only while it still means the same move; a different list (the
// game moved on) gets the fresh list instead. An empty list has the tag of
// no bytes.
func ChoiceTag(moves []engine.Move) string {
	b := make([]byte, 0, 128*len(moves))
	for _, m := range moves {
		var err error
		if b, err = engine.AppendMove(b, m); err != nil {
			// A move that does not marshal cannot be listed either; its
			// type name still changes the tag.
			b = append(b, err.Error()...)
		}
		b = append(b, '\n')
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:4])
}

// Labels returns the labels of moves, in order.
func Labels(moves []engine.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.Label()
	}
	return out
}
