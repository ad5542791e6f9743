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
	h := sha256.New()
	for _, m := range moves {
		b, err := engine.MarshalMove(m)
		if err != nil {
			// A move that does not marshal cannot be listed either; its
			// type name still changes the tag.
			b = []byte(err.Error())
		}
		h.Write(b)
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:8]
}

// Labels returns the labels of moves, in order.
func Labels(moves []engine.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = m.Label()
	}
	return out
}
